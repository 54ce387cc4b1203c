// The official TypeScript MCP client (@modelcontextprotocol/sdk, pinned in
// package.json) as a bridge for backend/cli's TestMCPThroughTheTypeScriptClient:
// it spawns the server named by argv[2] (a JSON object {command, args, env})
// over stdio as client argv[3], then runs one request per line of stdin and
// answers each with one line of JSON on stdout:
//
//   {"id":1,"op":"list"}                                  -> tools/list
//   {"id":2,"op":"call","tool":"job","args":{...}}        -> tools/call
//   {"id":3,"op":"read","uri":"ferry://session/..."}      -> resources/read
//   {"id":4,"op":"templates"}                             -> resources/templates/list
//
// An answer is {"id":…,"ok":true,"result":…} when the client accepted the
// server's result, or {"id":…,"ok":false,"error":{"code":…,"message":…}}
// when the client threw (a JSON-RPC error, or a result it refused, such as
// structured content that does not match the tool's output schema).
// Stdin's end closes the session and exits 0.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const server = JSON.parse(process.argv[2]);
const name = process.argv[3] || "ts-client";

const transport = new StdioClientTransport({
  command: server.command,
  args: server.args,
  env: server.env,
  stderr: "inherit",
});
const client = new Client({ name, version: "test" });
// A job can wait up to 300 s for its answer (wait_s); the SDK's default
// request timeout is 60 s.
const timeout = 330_000;

function answer(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

async function run(req) {
  switch (req.op) {
    case "list":
      return client.listTools(undefined, { timeout });
    case "call":
      return client.callTool({ name: req.tool, arguments: req.args ?? {} }, undefined, { timeout });
    case "read":
      return client.readResource({ uri: req.uri }, { timeout });
    case "templates":
      return client.listResourceTemplates(undefined, { timeout });
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

try {
  await client.connect(transport);
  // As an agent does: the tool list first, which also gives the client the
  // output schemas it checks each tool's results against.
  await client.listTools(undefined, { timeout });
} catch (err) {
  answer({ id: 0, ok: false, error: { message: `connect: ${err?.message ?? err}` } });
  process.exit(1);
}
answer({ id: 0, ok: true, result: { server: client.getServerVersion() } });

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  try {
    answer({ id: req.id, ok: true, result: await run(req) });
  } catch (err) {
    answer({ id: req.id, ok: false, error: { code: err?.code ?? null, message: String(err?.message ?? err) } });
  }
}
await client.close();
process.exit(0);
