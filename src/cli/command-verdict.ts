/**
 * A command that finished its work and reported it, ending with a non-zero exit code that is
 * its verdict, not a failure of its own (`clobot doctor`: 1 warnings, 2 failures). The report
 * is already printed; main prints nothing more.
 */
export class CommandVerdict extends Error {
  override readonly name: string = 'CommandVerdict';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}
