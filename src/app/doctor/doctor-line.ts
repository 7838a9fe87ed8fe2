/**
 * One line of `clobot doctor`: a named check, how it went and what it found. `skip` is a check
 * that does not apply (a paper run has no account) or was not safe to make, with the reason.
 */
export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorLine {
  readonly check: string;
  readonly status: DoctorStatus;
  /** What was found, one line, never a secret. */
  readonly detail: string;
  /** Figures of the check (ms, counts), for `--json`. */
  readonly figures?: Readonly<Record<string, number | string | boolean>>;
}

export interface DoctorReport {
  readonly lines: readonly DoctorLine[];
  /** 0 every check ok or skipped, 1 a warning, 2 a failure. */
  readonly exitCode: 0 | 1 | 2;
}

/** The report of some lines: the exit code is the worst status's. */
export function doctorReport(lines: readonly DoctorLine[]): DoctorReport {
  const exitCode = lines.some((l) => l.status === 'fail') ? 2 : lines.some((l) => l.status === 'warn') ? 1 : 0;
  return { lines, exitCode };
}

export const ok = (check: string, detail: string, figures?: DoctorLine['figures']): DoctorLine => ({ check, status: 'ok', detail, ...(figures ? { figures } : {}) });
export const warn = (check: string, detail: string, figures?: DoctorLine['figures']): DoctorLine => ({ check, status: 'warn', detail, ...(figures ? { figures } : {}) });
export const fail = (check: string, detail: string, figures?: DoctorLine['figures']): DoctorLine => ({ check, status: 'fail', detail, ...(figures ? { figures } : {}) });
export const skip = (check: string, detail: string): DoctorLine => ({ check, status: 'skip', detail });

/** An error as one line: its message, never its stack. */
export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
