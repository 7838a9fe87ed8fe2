import { Option, type Command } from 'commander';
import { ConfigError } from '../../core/errors.ts';
import { maskValue, Secret } from '../../core/secret.ts';
import { getOrCreateApiKey } from '../../venue/actions/get-or-create-api-key.ts';
import { l1Address } from '../../venue/auth/with-l1-auth.ts';
import { createVenueClient, type VenueProfile } from '../../venue/client.ts';
import { VENUE_PROFILES } from '../../venue/domain/profiles.ts';
import { WALLET_KIND } from '../../config/resolve-account.ts';
import type { SignatureType } from '../../config/run-config.ts';
import { sandboxWalletAddress } from '../../sandbox/trading/wallets.ts';
import { isAddress, sameAddress, toChecksumAddress } from '../../venue/signing/address.ts';
import { UsageError } from '../usage-error.ts';
import { parseIntOption, parseUrlOption } from '../options.ts';
import { reachingVenue } from '../venue-unreachable.ts';

/** The environment variable `clobot keys` reads the private key from. */
export const PRIVATE_KEY_ENV = 'CLOBOT_PRIVATE_KEY';

interface KeysFlags {
  venue: string;
  show?: boolean;
  nonce: number;
  profile: VenueProfile;
  signatureType: number;
  funder?: string;
}

const WALLET_KIND_OF_TYPE = { 1: 'proxy', 2: 'safe', 3: 'deposit' } as const;

/**
 * `clobot keys --venue <url>`: the L2 API credentials of the key in CLOBOT_PRIVATE_KEY, derived
 * with an L1 signature (created when the venue has none for the nonce), and which wallet the
 * account trades through (`--signature-type`, `--funder`). Printed masked unless `--show`. The private key is never printed, not even when it is malformed.
 */
export function registerKeys(program: Command): void {
  program
    .command('keys')
    .description(`derive the API credentials of the key in ${PRIVATE_KEY_ENV} (printed masked unless --show)`)
    .requiredOption('--venue <url>', 'venue base URL', parseUrlOption)
    .option('--show', 'print the credentials in full')
    .option('--nonce <n>', 'key nonce (the same nonce always gives the same credentials)', parseIntOption(0), 0)
    .addOption(new Option('--profile <p>', 'wire profile').choices(VENUE_PROFILES).default('interface'))
    .option('--signature-type <n>', 'the wallet the account trades through: 0 the key (EOA), 1 proxy, 2 safe, 3 deposit wallet', parseIntOption(0, 3), 0)
    .option('--funder <address>', 'the wallet address for signature types 1-3 (default: the sandbox\'s wallet of the key)')
    .action(async (flags: KeysFlags) => {
      const privateKey = readPrivateKey(process.env);
      const address = l1Address({ privateKey });
      const wallet = walletLine(address, flags.signatureType, flags.funder);
      const venue = createVenueClient({ baseUrl: flags.venue, profile: flags.profile, retries: 1 });
      const creds = await reachingVenue(flags.venue, () => getOrCreateApiKey(venue, { privateKey, address, nonce: flags.nonce }));
      const show = (value: string): string => (flags.show ? value : maskValue(value));
      const lines = [
        ['address', address],
        ['wallet', wallet],
        ['apiKey', show(creds.apiKey)],
        ['secret', show(creds.secret.reveal())],
        ['passphrase', show(creds.passphrase.reveal())],
      ];
      process.stdout.write(lines.map(([k, v]) => `${(k as string).padEnd(11)}${v as string}`).join('\n') + '\n');
    });
}

/**
 * Which wallet the account trades through, for the `wallet` line: the key itself for type 0;
 * for 1-3 the `--funder` given, else the sandbox's wallet of that kind for the key
 * (src/sandbox/trading/wallets.ts), said to be the sandbox's.
 */
export function walletLine(address: string, signatureType: number, funder: string | undefined): string {
  const name = WALLET_KIND[signatureType as SignatureType];
  if (signatureType === 0) {
    if (funder !== undefined && !sameAddress(funder, address)) throw new UsageError('--funder: is only for --signature-type 1, 2 or 3; with 0 the key itself is the wallet');
    return `${name} (signatureType 0) ${address}`;
  }
  if (funder === undefined) {
    const sandbox = sandboxWalletAddress(address, WALLET_KIND_OF_TYPE[signatureType as 1 | 2 | 3]);
    return `${name} (signatureType ${signatureType}) ${sandbox} (the sandbox's ${name} of this key; on the venue pass --funder)`;
  }
  if (!isAddress(funder)) throw new UsageError(`--funder: ${funder.slice(0, 60)} is not a 0x address`);
  if (signatureType === 3 && sameAddress(funder, address)) throw new UsageError('--funder: must be the deposit wallet with --signature-type 3, not the key\'s own address');
  return `${name} (signatureType ${signatureType}) ${toChecksumAddress(funder)}`;
}

/** The private key from the environment as a Secret; a one-line UsageError (exit 2) when unset or malformed. */
export function readPrivateKey(env: NodeJS.ProcessEnv): Secret<string> {
  const raw = env[PRIVATE_KEY_ENV];
  if (raw === undefined || raw.trim() === '') throw new UsageError(`${PRIVATE_KEY_ENV} is not set`);
  const key = new Secret(raw.trim());
  try {
    l1Address({ privateKey: key });
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`${PRIVATE_KEY_ENV}: must be 32 bytes of hex (64 digits, optional 0x) in the secp256k1 range`);
    throw err;
  }
  return key;
}
