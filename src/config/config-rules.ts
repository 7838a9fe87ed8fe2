import type { ConfigIssue } from './config-issue.ts';
import type { ConfigFile } from './schema.ts';

/**
 * Rules across keys that the per-key schema cannot say. Errors make the config invalid;
 * warnings are printed and the run goes on.
 */
export function checkRules(file: ConfigFile): { issues: ConfigIssue[]; warnings: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const { risk, data, mode } = file;

  const seen = new Map<string, number>();
  risk.checks.forEach((name, i) => {
    const first = seen.get(name);
    if (first !== undefined) issues.push({ path: ['risk', 'checks', i], message: `${name} is listed twice (also at risk.checks[${first}])` });
    else seen.set(name, i);
  });

  const poll = data.pollIntervalMs;
  if (typeof poll === 'number' && data.transport === 'poll' && mode !== 'backtest') {
    if (risk.checks.includes('staleBook') && risk.staleBookMs <= poll) {
      issues.push({
        path: ['risk', 'staleBookMs'],
        message: `must be > data.pollIntervalMs (${poll}), or books would count as stale between polls and every order be denied`,
        showValue: true,
      });
    }
    if (data.staleAfterMs <= poll) {
      issues.push({ path: ['data', 'staleAfterMs'], message: `must be > data.pollIntervalMs (${poll})`, showValue: true });
    }
  }

  if (mode === 'live' && !risk.checks.includes('killSwitch')) {
    warnings.push({ path: ['risk', 'checks'], message: `has no killSwitch: risk.haltFile and the loss and reject limits cannot halt trading` });
  }
  // a budget nobody checks would be a limit that silently is not one
  if (!risk.checks.includes('strategyBudget')) {
    file.strategies.forEach((s, i) => {
      if (s.budget !== undefined) issues.push({ path: ['strategies', i, 'budget'], message: 'is set but risk.checks leaves out strategyBudget, the check that enforces it: add it or drop the budget' });
    });
  }
  if (mode !== 'backtest' && file.strategies.length > 0 && file.strategies.every((s) => !s.enabled)) {
    warnings.push({ path: ['strategies'], message: 'every strategy is disabled: nothing will trade' });
  }
  return { issues, warnings };
}
