import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { ConfigError, fileErrorReason } from '../core/errors.ts';
import type { JobData } from './job.ts';

/** The lower-case hex SHA-256 of a file's bytes, read as a stream (a recording may be gigabytes). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  } catch (err) {
    throw unreadable(path, err);
  }
  return hash.digest('hex');
}

/** The error of a data file that cannot be read, as `clobot backtest --data` words it. */
function unreadable(path: string, err: unknown): ConfigError {
  return new ConfigError(`${path}: cannot read data file (${fileErrorReason(err)})`, { cause: err });
}

/** A job's data did not have the content hash the job names. */
export class DataHashMismatchError extends ConfigError {
  override readonly name: string = 'DataHashMismatchError';
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${path}: the data file's SHA-256 is ${actual}, the job was made for ${expected} (the file changed, or another file has this path here)`);
  }
}

/**
 * Checks job data against its hash. A file is hashed once per state (size, mtime, inode): the
 * jobs of a sweep share one data file, and a worker runs many of them.
 */
export class DataVerifier {
  readonly #known = new Map<string, string>();

  async verify(data: JobData): Promise<void> {
    let key: string;
    try {
      const st = statSync(data.path);
      key = `${data.path}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
    } catch (err) {
      throw unreadable(data.path, err);
    }
    let actual = this.#known.get(key);
    if (actual === undefined) {
      actual = await sha256File(data.path);
      this.#known.set(key, actual);
    }
    if (actual !== data.sha256.toLowerCase()) throw new DataHashMismatchError(data.path, data.sha256, actual);
  }
}
