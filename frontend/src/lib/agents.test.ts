import { describe, expect, it } from 'vitest';
import { approvalRule, mcpClients } from './agents';

const paired = { id: 'c1', name: 'script', autoApprove: false };
const claude = { id: 'c2', name: 'claude-code', autoApprove: false, kind: 'mcp' };
const codex = { id: 'c3', name: 'codex-mcp-client', autoApprove: true, kind: 'mcp' };

describe('mcpClients', () => {
  it('keeps only the clients ferry mcp created, in order', () => {
    expect(mcpClients([paired, claude, codex]).map((c) => c.id)).toEqual(['c2', 'c3']);
  });
  it('is empty when no agent came through MCP', () => {
    expect(mcpClients([paired])).toEqual([]);
  });
});

describe('approvalRule', () => {
  it('says a new client asks every time', () => {
    expect(approvalRule(claude)).toBe('Asks every time');
  });
  it('says an auto-approved client runs without asking', () => {
    expect(approvalRule(codex)).toBe('Runs without asking');
  });
  it('says a revoked client is refused whatever its rule', () => {
    expect(approvalRule({ ...codex, revokedAt: '2026-12-01T00:00:00Z' })).toBe('Revoked: its jobs are refused');
  });
});
