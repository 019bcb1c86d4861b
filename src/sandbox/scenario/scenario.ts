// Scenarios (--scenario FILE, POST /_sandbox/scenario): a world to start from, described by organizations,
// fleets, vehicles, devices, drivers, webhook configurations and clients, on top of the seeded world or
// instead of it. The shape, and the types below, are the control document's Scenario schema (control.gen.ts);
// what a schema cannot say (references, duplicates, callback URL rules) is checked while the world is built
// (scenario/build.ts). Either way a mistake is reported with the member it is in.
import type { components } from '../../openapi/control.gen.js';
import { checkShape, type SchemaIssue } from '../../openapi/schema-check.js';
import { CONTROL_DOCUMENT } from '../common/control-document.js';

type ControlSchema = components['schemas'];

export type ScenarioOrganization = ControlSchema['ScenarioOrganization'];
export type ScenarioFleet = ControlSchema['ScenarioFleet'];
export type ScenarioVehicles = ControlSchema['ScenarioVehicles'];
export type ScenarioDevices = ControlSchema['ScenarioDevices'];
export type ScenarioDriver = ControlSchema['ScenarioDriver'];
export type ScenarioWebhookConfig = ControlSchema['ScenarioWebhookConfig'];
export type ScenarioClient = ControlSchema['ScenarioClient'];
export type ScenarioDeviceReporting = ControlSchema['ScenarioDeviceReporting'];
export type Scenario = ControlSchema['Scenario'];

/** A mistake in a scenario, at a member: `devices[2].vehicle: no vehicle van-9 in this scenario`. */
export class ScenarioError extends Error {
  constructor(readonly issue: SchemaIssue) {
    super(issue.member ? `${issue.member}: ${issue.reason}` : issue.reason);
    this.name = 'ScenarioError';
  }
}

/** Throws the ScenarioError of a mistake at `member`. */
export const fail = (member: string, reason: string): never => {
  throw new ScenarioError({ member, reason });
};

/** The document as a Scenario, or a ScenarioError naming the first member that does not fit the schema. */
export async function asScenario(value: unknown): Promise<Scenario> {
  const issue = await checkShape(CONTROL_DOCUMENT, 'Scenario', value);
  if (issue) throw new ScenarioError(issue);
  return value as Scenario;
}
