import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { TEST_ORIGIN, TestApp } from '../support/test-app';
import { addMember, Agent, Caller, CALLERS, createTeam, Person, Team } from './support';

/** The answers of the organisation rules, as the API words them. */
export const EDITORS_ONLY_DATASET =
  'Only editors, admins and owners of the organisation this dataset belongs to can manage it';
export const EDITORS_ONLY_ORGANISATION =
  'Only editors, admins and owners of this organisation may get, buy or move datasets for it.';
export const DATASET_OWNER_ONLY = 'Only the owner can manage this dataset';

/** Every caller of the matrix, and one who was a member (an editor) and left. */
export type HoldingCaller = Caller | 'former';
export const HOLDING_CALLERS: HoldingCaller[] = [...CALLERS, 'former'];
export const EDITING: HoldingCaller[] = ['owner', 'admin', 'editor'];

export interface HoldingTeam extends Team {
  people: Record<HoldingCaller, Person>;
}

/** A team with one member of each role, an outsider, and a former editor who has left. */
export async function createHoldingTeam(testApp: TestApp): Promise<HoldingTeam> {
  const team = await createTeam(testApp);
  const former = await createLoggedInUser(testApp, { name: 'Former editor' });
  await addMember(testApp, team.id, former.user.id, 'editor');
  return { ...team, people: { ...team.people, former } };
}

/** The former member leaves through the API (after what they did while a member). */
export async function formerLeaves(team: HoldingTeam): Promise<void> {
  await team.people.former.agent
    .post(`/api/organisations/${team.id}/leave`)
    .set('Origin', TEST_ORIGIN)
    .expect(200);
}

export function moveDataset(agent: Agent, assetId: string, organisationId: unknown) {
  return agent
    .post(`/api/assets/${assetId}/move`)
    .set('Origin', TEST_ORIGIN)
    .send({ organisation_id: organisationId });
}

export function grantFor(agent: Agent, assetId: string, organisationId?: unknown) {
  return agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId, organisationId });
}

export function removeFor(agent: Agent, assetId: string, organisationId?: unknown) {
  return agent.post('/api/access/remove').set('Origin', TEST_ORIGIN).send({ assetId, organisationId });
}

/** Twelve rows: more than the 10-row sample, so a full read tells itself apart. */
export const TWELVE_ROWS = `name,amount\n${Array.from({ length: 12 }, (_, index) => `row${index},${index}`).join('\n')}\n`;

/** A private dataset uploaded by `by` and moved into the team's organisation. */
export async function organisationDataset(
  team: Team,
  by: Person,
  fields: Record<string, string> = {},
): Promise<string> {
  const id = await uploadDataset(by.agent, { is_public: 'false', ...fields }, TWELVE_ROWS);
  await moveDataset(by.agent, id, team.id).expect(200);
  return id;
}

export async function readableName(testApp: TestApp, assetId: string): Promise<string> {
  const [row] = await testApp.dataSource.query(`SELECT readable_name FROM assets WHERE id = $1`, [assetId]);
  return row.readable_name;
}
