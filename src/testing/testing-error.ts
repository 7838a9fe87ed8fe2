import { ClobotError } from '../core/errors.ts';

/** Bad input to clobot/testing (a script, a strategy or an option): one line naming what and where. */
export class TestingError extends ClobotError {
  override readonly name: string = 'TestingError';
}
