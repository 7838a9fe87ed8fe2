import type { ChildProcess } from 'node:child_process';

/** Kills each child (SIGKILL) and resolves once every one has exited: tests' worker processes. */
export async function killProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null || w.signalCode !== null) return resolve();
          w.once('exit', () => resolve());
          w.kill('SIGKILL');
        }),
    ),
  );
}
