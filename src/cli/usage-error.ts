import { ClobotError } from '../core/errors.ts';

/** Bad input from the command line: printed as one line, exit code 2. */
export class UsageError extends ClobotError {
  override readonly name: string = 'UsageError';
}
