#!/usr/bin/env node
// Builds clobot's optional signing addon (src/venue/signing/native: secp256k1 signatures through
// the system's libsecp256k1) on `npm install` / `npm ci`.
//
// The addon signs through the system's libsecp256k1 (Debian/Ubuntu: libsecp256k1-dev), about
// 1.5x the rate of the library bundled in the `secp256k1` npm package. It is optional: when the
// library or a compiler is missing, the build is skipped with one line saying so, and clobot
// signs through the npm package (the same bytes, a little slower). Nothing here fails an install
// unless CLOBOT_NATIVE_SIGNER=1 asks for the addon; CLOBOT_NATIVE_SIGNER=0 skips the build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ADDON_DIR = join(ROOT, 'src/venue/signing/native');
const wanted = process.env.CLOBOT_NATIVE_SIGNER;

function skip(reason) {
  const line = `clobot: native signing addon not built (${reason}); signing uses the secp256k1 npm package`;
  if (wanted === '1') {
    console.error(`${line}, and CLOBOT_NATIVE_SIGNER=1 requires the addon`);
    process.exit(1);
  }
  console.log(line);
  process.exit(0);
}

if (wanted === '0') skip('CLOBOT_NATIVE_SIGNER=0');
const includeDirs = ['/usr/include', '/usr/local/include', '/opt/homebrew/include', ...(process.env.CPATH ?? '').split(':').filter(Boolean)];
if (!includeDirs.some((d) => existsSync(join(d, 'secp256k1_recovery.h')))) {
  skip('no libsecp256k1 headers; on Debian or Ubuntu: apt-get install libsecp256k1-dev, then node bin/build-native.mjs');
}

// npm hands its bundled node-gyp to lifecycle scripts; run by hand, use npm's own copy
const bundled = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
const gyp = [process.env.npm_config_node_gyp, bundled].find((p) => p !== undefined && existsSync(p));
if (gyp === undefined) skip('node-gyp not found');
// Node's own headers when they are installed beside it (as npm's `nodedir` setting does), so
// node-gyp needs no download
const prefix = join(dirname(process.execPath), '..');
const nodedir = process.env.npm_config_nodedir === undefined && existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
const build = spawnSync(process.execPath, [gyp, 'rebuild', `--directory=${ADDON_DIR}`, ...nodedir], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) {
  rmSync(join(ADDON_DIR, 'build'), { recursive: true, force: true });
  const detail = `${build.stderr ?? ''}${build.error ? String(build.error) : ''}`.trim().split('\n').slice(-3).join(' | ');
  skip(`node-gyp failed: ${detail || `exit ${build.status}`}`);
}
// an installed package runs dist/: its compiled native-addon.js looks beside itself
const DIST_ADDON = join(ROOT, 'dist/venue/signing/native/build/Release');
if (existsSync(join(ROOT, 'dist/venue/signing'))) {
  mkdirSync(DIST_ADDON, { recursive: true });
  copyFileSync(join(ADDON_DIR, 'build/Release/clobot_signing.node'), join(DIST_ADDON, 'clobot_signing.node'));
}
console.log("clobot: native signing addon built against the system libsecp256k1");
