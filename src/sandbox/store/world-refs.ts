// What the device and vehicle tables need to show a row as a record: organizations by index (rows keep an
// index, not the uuid text) and fleets by seq.
import type { IndexedCollection } from './collection.js';
import type { FleetRecord, OrganizationRecord } from '../common/records.js';

export class WorldRefs {
  /** Organizations in the order they were made (parents before children). */
  readonly organizationList: OrganizationRecord[] = [];
  private readonly organizationIndex = new Map<string, number>();
  private readonly fleetOrgs: number[] = [];

  constructor(readonly fleets: IndexedCollection<FleetRecord>) {}

  addOrganization(org: OrganizationRecord): number {
    const index = this.organizationList.length;
    this.organizationList.push(org);
    this.organizationIndex.set(org.id, index);
    return index;
  }

  orgIndex(id: string): number {
    const index = this.organizationIndex.get(id);
    if (index === undefined) throw new Error(`no organization ${id}`);
    return index;
  }

  /** The index of an organization id, or -1. */
  findOrgIndex(id: string): number {
    return this.organizationIndex.get(id) ?? -1;
  }

  orgId(index: number): string {
    return this.organizationList[index]!.id;
  }

  fleetId(seq: number): string {
    return this.fleets.items[seq]!.id;
  }

  /** Fleets never change organization: their index is looked up once. */
  fleetOrgIndex(seq: number): number {
    return (this.fleetOrgs[seq] ??= this.orgIndex(this.fleets.items[seq]!.organization_id));
  }
}
