// Scenarios (--scenario FILE, POST /_sandbox/scenario): a world to start from, described by organizations,
// fleets, vehicles, devices, drivers, webhook configurations and clients, on top of the seeded world or
// instead of it. The shape is the control document's Scenario schema; what a schema cannot say (references,
// duplicates, callback URL rules) is checked while the world is built (scenario/build.ts). Either way a
// mistake is reported with the member it is in.
import type { Capability } from '../store/records.js';
import type { TopicType } from '../../webhooks/index.js';
import { checkShape, type SchemaIssue } from '../../openapi/schema-check.js';
import { CONTROL_DOCUMENT } from '../control/document.js';

export interface ScenarioOrganization {
  key: string;
  name: string;
  parent?: string | null;
  id?: string;
}

export interface ScenarioFleet {
  key: string;
  organization: string;
  name: string;
  id?: string;
}

export interface ScenarioVehicles {
  key?: string;
  fleet: string;
  name?: string;
  id?: string;
  count?: number;
}

export interface ScenarioDevices {
  fleet: string;
  count?: number;
  hardware_id?: string;
  name?: string;
  id?: string;
  capabilities?: Capability[];
  vehicle?: string | null;
  last_seen_at?: string | null;
  live_position?: boolean | { latitude: number; longitude: number };
}

export interface ScenarioDriver {
  fleet: string;
  first_name: string;
  last_name: string;
  email?: string | null;
  phone?: string | null;
  license_number?: string | null;
  employee_id?: string | null;
  status?: 'active' | 'inactive';
  id?: string;
}

export interface ScenarioWebhookConfig {
  organization: string;
  is_enabled?: boolean;
  topics: { type: TopicType; url: string; is_enabled?: boolean }[];
  auth_key?: string;
}

export interface ScenarioClient {
  client_id: string;
  client_secret?: string;
  organization: string;
  scopes: string[];
}

/** How devices report after a command (control document: ScenarioDeviceReporting; telemetry/device-returns.ts). */
export interface ScenarioDeviceReporting {
  reboot_downtime_ms?: number;
  reboot_jitter_ms?: number;
  wake_up_report_ms?: number;
  never_back?: string[];
}

export interface Scenario {
  name?: string;
  description?: string;
  base?: 'seed' | 'empty';
  organizations?: ScenarioOrganization[];
  fleets?: ScenarioFleet[];
  vehicles?: ScenarioVehicles[];
  devices?: ScenarioDevices[];
  drivers?: ScenarioDriver[];
  webhooks?: ScenarioWebhookConfig[];
  clients?: ScenarioClient[];
  device_reporting?: ScenarioDeviceReporting;
}

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
