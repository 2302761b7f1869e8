/**
 * Plays one 2-player New Capital game to its end against a running Conclave server, choosing
 * every action from the acting seat's own `legalActions`, and prints the result as one JSON
 * line. A bot needs nothing else: a legal action is complete, sent back unchanged.
 *
 *   node dist/main.js --url http://127.0.0.1:8000/graphql [--seed 7] [--pick random|first]
 */
import { parseArgs } from "node:util";

import { ConclaveClient } from "./client.js";
import type { LegalAction } from "./generated/schema.js";
import {
  ActMutation,
  CreateTableMutation,
  FinalTableQuery,
  JoinTableMutation,
  SeatViewQuery,
  ServerInfoQuery,
} from "./operations.js";
import { makeRandom, type Random } from "./random.js";

const PLAYERS = 2;

interface Options {
  url: string;
  seed: number;
  pick: "random" | "first";
  maxActions: number;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: "string", default: process.env["CONCLAVE_URL"] ?? "http://127.0.0.1:8000/graphql" },
      seed: { type: "string", default: "1" },
      pick: { type: "string", default: "random" },
      "max-actions": { type: "string", default: "20000" },
    },
    strict: true,
  });
  const seed = Number(values.seed);
  const maxActions = Number(values["max-actions"]);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number, not ${values.seed}`);
  if (!Number.isSafeInteger(maxActions) || maxActions < 1) throw new Error("--max-actions must be a positive number");
  if (values.pick !== "random" && values.pick !== "first") throw new Error("--pick is random or first");
  return { url: values.url, seed, pick: values.pick, maxActions };
}

/** Seat tokens by seat, after creating the table and taking every seat with its join code. */
async function createTable(client: ConclaveClient, seed: number): Promise<{ tableId: string; tokens: string[] }> {
  const { serverInfo } = await client.execute(ServerInfoQuery, {});
  // A chosen seed replays the same game; a server that refuses them draws its own.
  const input = { game: "new-capital", players: PLAYERS, ...(serverInfo.chosenSeedsAllowed ? { seed } : {}) };
  const { createTable: created } = await client.execute(CreateTableMutation, { input });
  if (created.__typename === "Rejected") throw new Error(`createTable refused: ${created.code} ${created.message}`);
  const tableId = created.table.id;
  const tokens: string[] = [];
  for (const { seat } of created.table.seats) {
    const { joinTable: joined } = await client.execute(JoinTableMutation, {
      tableId,
      seat,
      name: `Bot ${seat}`,
      code: created.joinCode,
    });
    if (joined.__typename === "Rejected") throw new Error(`joinTable ${seat} refused: ${joined.code} ${joined.message}`);
    tokens[joined.seat] = joined.seatToken;
  }
  return { tableId, tokens };
}

function choose<T>(items: readonly T[], pick: Options["pick"], random: Random): T {
  const item = pick === "first" ? items[0] : items[random.below(items.length)];
  if (item === undefined) throw new Error("nothing to choose from");
  return item;
}

/** Acts until the table is finished; returns the number of accepted actions. */
async function play(client: ConclaveClient, tableId: string, tokens: string[], options: Options): Promise<number> {
  const random = makeRandom(options.seed);
  const token = (seat: number): string => {
    const t = tokens[seat];
    if (t === undefined) throw new Error(`no token for seat ${seat}`);
    return t;
  };
  let actions = 0;
  let status = "";
  let activeSeats: number[] = [];
  {
    const { table } = await client.execute(SeatViewQuery, { tableId }, token(0));
    if (table === null || table === undefined) throw new Error(`table ${tableId} not found`);
    ({ status, activeSeats } = table);
  }
  while (status !== "finished") {
    if (actions >= options.maxActions) throw new Error(`no end after ${actions} actions`);
    const seat = choose(activeSeats, options.pick, random);
    const { table } = await client.execute(SeatViewQuery, { tableId }, token(seat));
    if (table === null || table === undefined) throw new Error(`table ${tableId} vanished`);
    if (table.viewer !== seat) throw new Error(`seat ${seat}'s token viewed as ${table.viewer}`);
    const legal: LegalAction[] = table.legalActions;
    const action = choose(legal, options.pick, random);
    const { act } = await client.execute(
      ActMutation,
      { tableId, action: { type: action.type, params: action.params }, expectedVersion: table.version },
      token(seat),
    );
    if (act.__typename === "ActRejected") {
      throw new Error(`seat ${seat}'s legal action ${action.type} refused: ${act.code} ${act.message}`);
    }
    actions += 1;
    ({ status, activeSeats } = act.table);
  }
  return actions;
}

function winners(result: unknown): unknown {
  return typeof result === "object" && result !== null && "winners" in result ? result.winners : null;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const client = new ConclaveClient(options.url);
  const { tableId, tokens } = await createTable(client, options.seed);
  const actions = await play(client, tableId, tokens, options);
  const { table } = await client.execute(FinalTableQuery, { tableId });
  if (table === null || table === undefined) throw new Error(`table ${tableId} not found at the end`);
  console.error(`table ${tableId}: ${table.status} after ${actions} actions; winners ${JSON.stringify(winners(table.result))}`);
  console.log(JSON.stringify({ tableId, status: table.status, version: table.version, actions,
                               result: table.result, seed: table.seed, seedCommitment: table.seedCommitment }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
