// Comunica (from npm, service/aikg/web/node_modules) as an outside client of a live aikg server.
// Usage: node comunica.mjs <node_modules dir> <query endpoint> <select|ask|construct|update|rounds> <text> [update endpoint] [token]
// Prints the result as JSON on stdout: bindings as {var: {termType, value, language?, datatype?}}, quads, or {ok}.
// "rounds" runs <text> rounds of an update and a query reading it back, in one engine (one connection pool),
// pausing past the server's 2 s keep-alive after every third round; it prints each round's outcome.
import { createRequire } from "node:module";

const [modules, endpoint, kind, text, updateEndpoint, token] = process.argv.slice(2);
const require = createRequire(modules + "/");
const { QueryEngine } = require("@comunica/query-sparql");
// Comunica 4.5 parses SPARQL JSON with sparqljson-parse 3, which builds language-tagged literals the RDF/JS
// 2.x way; its default data factory is 1.x and drops the tag. Hand it a 2.x factory (a devDependency).
const { DataFactory } = require("rdf-data-factory");

const engine = new QueryEngine();
const context = { sources: [{ type: "sparql", value: endpoint }], dataFactory: new DataFactory() };
const authorized = (input, init = {}) => fetch(input, { ...init,
  headers: { ...Object.fromEntries(new Headers(init.headers).entries()), Authorization: `Bearer ${token}` } });
const writing = { ...context, destination: { type: "sparql", value: updateEndpoint }, fetch: authorized };
const term = (t) => ({ termType: t.termType, value: t.value,
  ...(t.language ? { language: t.language } : {}), ...(t.datatype ? { datatype: t.datatype.value } : {}) });

if (kind === "select") {
  const stream = await engine.queryBindings(text, context);
  const rows = (await stream.toArray()).map((b) => Object.fromEntries([...b].map(([v, t]) => [v.value, term(t)])));
  console.log(JSON.stringify(rows));
} else if (kind === "ask") {
  console.log(JSON.stringify(await engine.queryBoolean(text, context)));
} else if (kind === "construct") {
  const stream = await engine.queryQuads(text, context);
  const quads = (await stream.toArray()).map((q) => [term(q.subject), term(q.predicate), term(q.object)]);
  console.log(JSON.stringify(quads));
} else if (kind === "update") {
  await engine.queryVoid(text, writing);
  console.log(JSON.stringify({ ok: true }));
} else if (kind === "rounds") {
  const graph = "http://example.org/clients/comunica-loop";
  const outcomes = [];
  for (let i = 0; i < Number(text); i++) {
    try {
      await engine.queryVoid(`INSERT DATA { GRAPH <${graph}> { <urn:x:round-${i}> <urn:x:p> ${i} } }`, writing);
      const read = await engine.queryBindings(`SELECT ?o WHERE { GRAPH <${graph}> { <urn:x:round-${i}> ?p ?o } }`, context);
      const rows = await read.toArray();
      outcomes.push(rows.length === 1 && rows[0].get("o").value === String(i) ? "ok" : `rows: ${rows.length}`);
    } catch (e) {
      outcomes.push(`failed: ${String(e.message).slice(0, 200)}`);
    }
    if (i % 3 === 2) await new Promise((resolve) => setTimeout(resolve, 2500));
  }
  console.log(JSON.stringify(outcomes));
}
