import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { ConfigError, fileErrorReason } from '../core/errors.ts';

/** The largest config file read; a run config is a few kilobytes. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of a config file, read only from a regular file of at most MAX_CONFIG_BYTES: a
 * directory, a device (`/dev/zero`), a FIFO or a socket is refused before it is read, and so is a
 * file that is (or grows while read to) more than 1 MiB. Throws ConfigError naming the file.
 */
export function readConfigText(path: string): string {
  let fd: number | undefined;
  try {
    refuseIrregular(path, statSync(path));
    // non-blocking: a FIFO swapped in after the check cannot hang the open
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    refuseIrregular(path, st);
    if (st.size > MAX_CONFIG_BYTES) throw tooLarge(path);
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_CONFIG_BYTES) throw tooLarge(path);
    }
    return buf.toString('utf8', 0, length);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${path}: cannot read config file (${fileErrorReason(err)})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function refuseIrregular(path: string, st: Stats): void {
  if (st.isFile()) return;
  const kind = st.isDirectory() ? 'a directory' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isFIFO() ? 'a pipe' : 'not a regular file';
  throw new ConfigError(`${path}: cannot read config file (${kind}; give the path of a YAML file)`);
}

function tooLarge(path: string): ConfigError {
  return new ConfigError(`${path}: cannot read config file (larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB; a run config is a few kilobytes)`);
}
