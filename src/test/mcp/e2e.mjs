// End-to-end test of the MCP tool surface with the official TypeScript SDK client, against the packaged
// service (started by McpSdkEndToEndIT). Prints one line per step; exits non-zero at the first failed step.
// Environment: MCP_URL (the service's /mcp), MCP_TOKEN (tenant A, orders:read orders:write), MCP_OTHER_TOKEN
// (tenant B), MCP_SKU (stocked with 10 units in tenant A).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { randomUUID } from "node:crypto";

const url = new URL(process.env.MCP_URL);
const sku = process.env.MCP_SKU;
let step = 0;

function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

async function connect(token) {
  const client = new Client({ name: "ghostguard-e2e", version: "1.0.0" });
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

function problem(result) {
  check(result.isError === true, `expected an error result, got ${JSON.stringify(result)}`);
  return JSON.parse(result.content[0].text);
}

async function run(name, body) {
  step += 1;
  const detail = await body();
  console.log(`step ${step} ${name}: ok${detail ? ` (${detail})` : ""}`);
}

const order = (key, quantity) => ({
  name: "place_order",
  arguments: { idempotencyKey: key, customerId: "c-e2e", currency: "EUR", paymentToken: "tok_ok",
    items: [{ sku, quantity }] },
});

let client;
let placed;
const key = randomUUID();
try {
  await run("initialize", async () => {
    client = await connect(process.env.MCP_TOKEN);
    const server = client.getServerVersion();
    check(server.name === "ghostguard-orders", `server ${JSON.stringify(server)}`);
    return `server ${server.name} ${server.version}`;
  });
  await run("list tools", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    check(JSON.stringify(names) === JSON.stringify(["cancel_order", "check_stock", "get_order", "list_orders",
      "place_order"]), `tools ${names}`);
    const place = tools.find((tool) => tool.name === "place_order");
    check(place.annotations.idempotentHint === true && place.annotations.readOnlyHint === false, "place annotations");
    check(place.inputSchema.additionalProperties === false, "strict input schema");
    check(place.outputSchema !== undefined, "output schema");
    return names.join(", ");
  });
  await run("place an order", async () => {
    const result = await client.callTool(order(key, 2));
    check(!result.isError, `refused: ${JSON.stringify(result.content)}`);
    placed = result.structuredContent;
    check(placed.status === "CONFIRMED" && placed.items[0].quantity === 2, JSON.stringify(placed));
    return `${placed.id}, total ${placed.total} ${placed.currency}`;
  });
  await run("retry the same call after reconnecting", async () => {
    const again = await connect(process.env.MCP_TOKEN);
    const result = await again.callTool(order(key, 2));
    check(!result.isError, "the retry was refused");
    check(result.structuredContent.id === placed.id, `a second order ${result.structuredContent.id}`);
    check(result._meta["io.ghostguard/replayed"] === true, "not marked as replayed");
    const stock = await again.callTool({ name: "check_stock", arguments: { sku } });
    check(stock.structuredContent.available === 8, `available ${stock.structuredContent.available}`);
    await again.close();
    return `same order ${placed.id}, replayed, 8 of 10 units left: one order`;
  });
  await run("reuse the key with other arguments", async () => {
    const doc = problem(await client.callTool(order(key, 3)));
    check(doc.type.endsWith("/idempotency-key-reused") && doc.status === 422, JSON.stringify(doc));
    return `${doc.status} ${doc.type.split("/").pop()}`;
  });
  await run("a schema violation", async () => {
    const doc = problem(await client.callTool({ name: "place_order", arguments: { idempotencyKey: randomUUID(),
      customerId: "c-e2e", currency: "EUR", paymentToken: "tok_ok", coupon: "FREE",
      items: [{ sku, quantity: "two" }] } }));
    const fields = doc.violations.map((violation) => violation.field).sort();
    check(doc.status === 400 && fields.includes("coupon") && fields.includes("items[0].quantity"),
      JSON.stringify(doc));
    return `${doc.status} ${doc.type.split("/").pop()}: ${fields.join(", ")}`;
  });
  await run("no token", async () => {
    try {
      await connect(undefined);
    } catch (error) {
      check(String(error).includes("401"), `not a 401: ${error}`);
      return "refused with 401";
    }
    throw new Error("connected without a token");
  });
  await run("a token of another tenant", async () => {
    const other = await connect(process.env.MCP_OTHER_TOKEN);
    const doc = problem(await other.callTool({ name: "get_order", arguments: { orderId: placed.id } }));
    check(doc.status === 404, JSON.stringify(doc));
    await other.close();
    return `the order is invisible: ${doc.status} ${doc.type.split("/").pop()}`;
  });
  await run("close a session", async () => {
    const headers = { Authorization: `Bearer ${process.env.MCP_TOKEN}` };
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
    const own = new Client({ name: "ghostguard-e2e", version: "1.0.0" });
    await own.connect(transport);
    const session = transport.sessionId;
    await own.listTools();
    await transport.terminateSession();
    const after = await fetch(url, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": session } });
    check(after.status === 404, `a closed session answered ${after.status}`);
    await own.close();
    return "DELETE closed it; a message naming it is 404";
  });
  await client.close();
} catch (error) {
  console.log(`step ${step + 1} failed: ${error.message}`);
  process.exit(1);
}
