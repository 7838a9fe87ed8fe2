/**
 * A part of the machine that some tests need and a fresh machine with Node alone lacks (clobot's
 * signing addon over the system libsecp256k1, Debian's chromium for the report test).
 *
 * Returns true when the tests of that part should skip: the part is absent and `requiredBy`=1 is
 * not set. It then prints one line saying what is skipped and which package to install. With
 * `requiredBy`=1 (.ci/run sets it) nothing skips, so an absent part fails its tests instead.
 */
export function skipAbsentPart(part: { name: string; present: boolean; requiredBy: string; install: string }): boolean {
  if (part.present || process.env[part.requiredBy] === '1') return false;
  console.warn(`skipped: ${part.name} is absent; to run these tests: ${part.install} (${part.requiredBy}=1 makes it required)`);
  return true;
}
