import { Option, type Command } from 'commander';
import { ConfigError } from '../../core/errors.ts';
import { maskValue, Secret } from '../../core/secret.ts';
import { getOrCreateApiKey } from '../../venue/actions/get-or-create-api-key.ts';
import { l1Address } from '../../venue/auth/with-l1-auth.ts';
import { createVenueClient, type VenueProfile } from '../../venue/client.ts';
import { VENUE_PROFILES } from '../../venue/domain/profiles.ts';
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
}

/**
 * `clobot keys --venue <url>`: the L2 API credentials of the key in CLOBOT_PRIVATE_KEY, derived
 * with an L1 signature (created when the venue has none for the nonce). Printed masked unless
 * `--show`. The private key is never printed, not even when it is malformed.
 */
export function registerKeys(program: Command): void {
  program
    .command('keys')
    .description(`derive the API credentials of the key in ${PRIVATE_KEY_ENV} (printed masked unless --show)`)
    .requiredOption('--venue <url>', 'venue base URL', parseUrlOption)
    .option('--show', 'print the credentials in full')
    .option('--nonce <n>', 'key nonce (the same nonce always gives the same credentials)', parseIntOption(0), 0)
    .addOption(new Option('--profile <p>', 'wire profile').choices(VENUE_PROFILES).default('interface'))
    .action(async (flags: KeysFlags) => {
      const privateKey = readPrivateKey(process.env);
      const address = l1Address({ privateKey });
      const venue = createVenueClient({ baseUrl: flags.venue, profile: flags.profile, retries: 1 });
      const creds = await reachingVenue(flags.venue, () => getOrCreateApiKey(venue, { privateKey, address, nonce: flags.nonce }));
      const show = (value: string): string => (flags.show ? value : maskValue(value));
      const lines = [
        ['address', address],
        ['apiKey', show(creds.apiKey)],
        ['secret', show(creds.secret.reveal())],
        ['passphrase', show(creds.passphrase.reveal())],
      ];
      process.stdout.write(lines.map(([k, v]) => `${(k as string).padEnd(11)}${v as string}`).join('\n') + '\n');
    });
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
