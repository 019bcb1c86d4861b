// Control routes of the targeted faults: add, list, remove one, clear (common/control-openapi.json, tag faults).
import { invalidBody, problem } from '../common/problems.js';
import { describeAnswer } from '../faults/answer.js';
import { faultRuleIssue, type FaultRuleInput } from '../faults/rules.js';
import type { ControlRoute } from '../app.js';

export const faultRoutes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/_sandbox/faults',
    operationId: 'listFaults',
    handler: (_ctx, app) => ({ status: 200, json: app.faults.list() }),
  },
  {
    method: 'POST',
    path: '/_sandbox/faults',
    operationId: 'addFault',
    async handler(ctx, app) {
      // the body fits the FaultRuleInput schema (checked before any control route runs)
      const input = (await ctx.jsonBody()) as FaultRuleInput;
      const issue = faultRuleIssue(input);
      if (issue) throw invalidBody(issue.member, issue.reason);
      const rule = app.faults.add(input);
      app.log(`fault ${rule.id} added: ${JSON.stringify(rule.match)} → ${describeAnswer(rule.respond)}`);
      return { status: 201, json: rule };
    },
  },
  {
    method: 'DELETE',
    path: '/_sandbox/faults',
    operationId: 'clearFaults',
    handler(_ctx, app) {
      app.faults.clear();
      app.log('faults cleared');
      return { status: 204 };
    },
  },
  {
    method: 'DELETE',
    path: '/_sandbox/faults/{faultId}',
    operationId: 'deleteFault',
    handler(ctx, app) {
      const id = ctx.params.faultId!;
      if (!app.faults.remove(id)) throw problem(404, 'fault.not_found', `There is no fault rule ${id}; GET /_sandbox/faults lists them.`);
      app.log(`fault ${id} removed`);
      return { status: 204 };
    },
  },
];
