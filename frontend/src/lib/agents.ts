// The pure part of Settings → Agents: which gateway clients are coding
// agents that came through `ferry mcp`, and how their approval rule reads.

/** MCP_KIND is service.AgentKindMCP: the kind of a client made by `ferry mcp`. */
export const MCP_KIND = 'mcp';

/** AgentClient is the part of service.ClientInfo this view reads. */
export interface AgentClient {
  id: string;
  name: string;
  autoApprove: boolean;
  revokedAt?: unknown;
  kind?: string;
}

/** mcpClients keeps the clients `ferry mcp` created, in the order given. */
export function mcpClients<T extends AgentClient>(list: readonly T[]): T[] {
  return list.filter((c) => c.kind === MCP_KIND);
}

/** approvalRule is how a client's jobs start, in words. */
export function approvalRule(c: AgentClient): string {
  if (c.revokedAt) return 'Revoked: its jobs are refused';
  return c.autoApprove ? 'Runs without asking' : 'Asks every time';
}
