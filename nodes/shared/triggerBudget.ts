import type { INodeProperties, IPollFunctions } from 'n8n-workflow';

import { budgetOf, pointsFor } from './budget';
import { credentialUserKey } from './credentialUser';

/** The default share of the point budget a trigger may use per window, in percent. */
export const DEFAULT_BUDGET_SHARE = 25;

/** What every check costs and what the share allows, for the trigger's notice. */
export const TRIGGER_BUDGET_NOTICE =
	"Each check costs 10 points of the account's budget of 300 per 15 minutes: checking every minute would cost 150 points per 15 minutes, every 5 minutes 30. The trigger uses at most its Budget Share (default 25%: 75 points, 7 checks per 15 minutes), and skips a check without a request when its share is used up, when actions are waiting for points, or when fewer than 60 points (a fifth) would remain for them; the next check delivers what a skipped one would have.";

/** The trigger option that sets its share of the point budget. */
export const budgetShareOption: INodeProperties = {
	displayName: 'Budget Share (%)',
	name: 'budgetShare',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100 },
	default: DEFAULT_BUDGET_SHARE,
	description:
		"Largest part of the account's point budget per 15-minute window this trigger may use. Checks beyond it are skipped until the window resets; what changed is delivered by the next check.",
};

/** Who spends a trigger's points: one trigger node of one workflow. */
export function triggerSpender(context: IPollFunctions): string {
	return `trigger:${context.getWorkflow().id ?? ''}:${context.getNode().name}`;
}

/**
 * Whether a check may run now: within the trigger's share of the window, leaving that share
 * for actions, with no actions waiting for points. A check that may not run sends nothing and
 * changes nothing, so the next one delivers what it would have: late, never lost, never twice.
 */
export async function checkFitsBudget(context: IPollFunctions, share: number): Promise<boolean> {
	if (context.getMode() === 'manual') return true;
	const budget = budgetOf(await credentialUserKey(context, 'ctsApi'));
	const verdict = budget.pollAllowed(triggerSpender(context), pointsFor('/list'), Math.min(100, Math.max(1, share)) / 100);
	if (verdict.allowed) return true;
	context.logger.info(`${context.getNode().name}: check skipped to leave the point budget for actions (${verdict.reason}); the next check delivers what changed.`);
	return false;
}
