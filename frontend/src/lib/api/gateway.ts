// The Gateway bound struct (app/approvals.go): approvals agents wait for and
// the paired clients of the local gateway; and the hub events app/hub.go
// forwards.

import * as Gateway from '../../../wailsjs/go/app/Gateway';
import { EventsOn } from '../../../wailsjs/runtime/runtime';
import type { app, service } from '../../../wailsjs/go/models';
import { call } from './call';

export type Approval = service.Approval;
export type Job = service.Job;
export type ClientInfo = service.ClientInfo;
export type PairingCode = service.PairingCode;
export type MCPConfig = app.MCPConfig;

/** HUB_EVENT is app.EventHub. */
export const HUB_EVENT = 'hub:event';

/** HubEvent mirrors hub.Event; data is the event's JSON payload. */
export interface HubEvent {
  seq: number;
  type: string;
  jobId?: string;
  clientId?: string;
  time: string;
  data?: unknown;
}

function connected(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { runtime?: unknown }).runtime === 'object';
}

/** approvals lists the jobs waiting for a decision, oldest first. */
export const approvals = (): Promise<Approval[]> => call(() => Gateway.Approvals());

/** approve lets a waiting job run; rejects with hub_not_found when it no longer waits. */
export const approve = (jobId: string): Promise<Job> => call(() => Gateway.Approve(jobId));

/** reject ends a waiting job without running it. */
export const reject = (jobId: string, reason: string): Promise<Job> => call(() => Gateway.Reject(jobId, reason));

/** clients lists the paired clients, revoked ones included. */
export const clients = (): Promise<ClientInfo[]> => call(() => Gateway.Clients());

/** pairingCode issues a one-time pairing code. */
export const pairingCode = (): Promise<PairingCode> => call(() => Gateway.PairingCode());

/** revoke ends a client's access. */
export const revoke = (id: string): Promise<ClientInfo> => call(() => Gateway.Revoke(id));

/** setAutoApprove sets whether a client's jobs run without asking. */
export const setAutoApprove = (id: string, on: boolean): Promise<ClientInfo> => call(() => Gateway.SetAutoApprove(id, on));

/** grantExisting sets whether a client's jobs may use the user's existing tabs, conversations and runs. */
export const grantExisting = (id: string, on: boolean): Promise<ClientInfo> => call(() => Gateway.GrantClient(id, on));

/** chooseFolder asks for a folder in the native dialog; "" when the user cancelled. */
export const chooseFolder = (): Promise<string> => call(() => Gateway.ChooseFolder());

/** setClientFolders replaces the folders a client may attach files from ([] for none). */
export const setClientFolders = (id: string, folders: string[]): Promise<ClientInfo> =>
  call(() => Gateway.SetClientFolders(id, folders));

/** mcpConfigs gives each coding agent's snippet registering the ferry CLI as its MCP server. */
export const mcpConfigs = (): Promise<MCPConfig[]> => call(() => Gateway.MCPConfigs());

/** onHubEvent subscribes to approval and client events; returns the unsubscribe. */
export function onHubEvent(fn: (e: HubEvent) => void): () => void {
  return connected() ? EventsOn(HUB_EVENT, fn) : () => {};
}
