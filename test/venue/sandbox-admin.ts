import type { RequestStatsSnapshot } from '../../src/sandbox/request-stats.ts';

/** The sandbox's loopback admin API, over real HTTP. */
export async function setFaults(url: string, patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${url}/admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (res.status !== 200) throw new Error(`POST /admin/faults answered ${res.status}: ${await res.text()}`);
}

export async function stats(url: string): Promise<RequestStatsSnapshot> {
  const res = await fetch(`${url}/admin/stats`);
  return (await res.json()) as RequestStatsSnapshot;
}

export async function resetStats(url: string): Promise<void> {
  await fetch(`${url}/admin/stats/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
}
