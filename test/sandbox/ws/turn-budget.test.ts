import { describe, expect, it } from 'vitest';
import { TurnBudget, type SlicedWork } from '../../../src/sandbox/ws/turn-budget.ts';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function turnsUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await nextTurn();
  expect(check()).toBe(true);
}

/** A work of `steps` steps that records, for each, its name and the budget's turn. */
function work(name: string, steps: number, budget: TurnBudget, log: string[]): SlicedWork & { left: number } {
  const w = {
    left: steps,
    pending: () => w.left > 0,
    step: () => {
      w.left--;
      log.push(`${name}@${budget.turns}`);
    },
  };
  return w;
}

describe('TurnBudget', () => {
  it('runs no step in the turn that woke the work, and one step a turn with a zero budget, the works taking turns at the head', async () => {
    const budget = new TurnBudget(0);
    const log: string[] = [];
    const a = work('a', 3, budget, log);
    const b = work('b', 2, budget, log);
    budget.wake(a);
    budget.wake(b);
    expect(log).toEqual([]);
    await turnsUntil(() => a.left === 0 && b.left === 0);
    expect(log).toEqual(['a@1', 'b@2', 'a@3', 'b@4', 'a@5']);
  });

  it('runs every step in one turn when the budget allows, a work woken by a step included', async () => {
    const budget = new TurnBudget(60_000);
    const log: string[] = [];
    const late = work('late', 2, budget, log);
    const first: SlicedWork & { left: number } = {
      left: 2,
      pending: () => first.left > 0,
      step: () => {
        first.left--;
        log.push(`first@${budget.turns}`);
        if (first.left === 0) budget.wake(late);
      },
    };
    budget.wake(first);
    await turnsUntil(() => late.left === 0);
    expect(log).toEqual(['first@1', 'first@1', 'late@1', 'late@1']);
  });

  it('stops a turn once its time is spent, and goes on in the next', async () => {
    const budget = new TurnBudget(5);
    const log: string[] = [];
    const slow: SlicedWork & { left: number } = {
      left: 4,
      pending: () => slow.left > 0,
      step: () => {
        slow.left--;
        log.push(`slow@${budget.turns}`);
        const until = performance.now() + 6;
        while (performance.now() < until);
      },
    };
    budget.wake(slow);
    await turnsUntil(() => slow.left === 0);
    expect(log).toEqual(['slow@1', 'slow@2', 'slow@3', 'slow@4']);
  });
});
