// Plays seeded random Germany games of Power Grid with boardgamers/powergrid, loaded at run time
// from a built checkout (its engine compiled into <peer>/engine/dist/); none of its code lives here.
// Usage: node powergrid_random.mjs PEER_DIR SEEDS PLAYERS [WARMUP]
// SEEDS is a comma-separated list; each step plays a uniformly random entry of the peer's own
// list of legal moves. WARMUP untimed games (other seeds) are played and replayed first so that
// the JIT has compiled the engine. Then, per timed seed:
//   ms: the wall time of playing the game (setup included): list, pick and move at each step;
//   replay_ms: the wall time of replaying its moves, recorded in an untimed play, from the
//     state after setup: `move` alone, which checks the move and makes the next list.
// Prints {"node", "seeds", "ms", "replay_ms", "moves", "rounds"}.
import { createRequire } from "node:module";
import { join } from "node:path";

const [peerDir, seedsArg, playersArg, warmupArg = "0"] = process.argv.slice(2);
// The peer compiles to CommonJS.
const peer = createRequire(import.meta.url)(join(peerDir, "engine", "dist", "index.js"));
const { setup, move, ended } = peer;

// mulberry32: a small seeded PRNG of our own, so that a seed gives the same moves on every run.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A runaway game would mean the policy or the peer no longer ends games: fail instead of hanging.
const MAX_MOVES = 100000;

function newGame(seed, players) {
  return setup(players, { map: "Germany" }, String(seed));
}

// One game to its end; each (seat, move) is pushed on `record` if given.
function play(seed, players, record) {
  const random = prng(seed);
  let G = newGame(seed, players);
  let moves = 0;
  while (!ended(G)) {
    if (moves === MAX_MOVES) throw new Error(`seed ${seed}: no end after ${MAX_MOVES} moves`);
    // One player acts at a time here: the peer's simultaneous bids need its fastBid option.
    const seat = G.currentPlayers[0];
    // Uniform over every (name, data) entry, found by index so that the harness's own share
    // of the time stays small.
    const lists = Object.entries(G.players[seat].availableMoves ?? {}).filter(([, d]) => d);
    let k = Math.floor(random() * lists.reduce((n, [, d]) => n + d.length, 0));
    let chosen;
    for (const [name, data] of lists) {
      if (k < data.length) {
        chosen = { name, data: data[k] };
        break;
      }
      k -= data.length;
    }
    if (!chosen) throw new Error(`seed ${seed}: seat ${seat} has no legal move`);
    if (record) record.push([seat, JSON.stringify(chosen)]);
    G = move(G, chosen, seat);
    moves++;
  }
  return { G, moves, rounds: G.round };
}

// The recorded moves applied again from setup; the time of the moves alone, in ms.
function replay(seed, players, record, expected) {
  // Fresh move objects, made before timing: the peer keeps the ones it is given in its log.
  const steps = record.map(([seat, text]) => [seat, JSON.parse(text)]);
  let G = newGame(seed, players);
  const start = process.hrtime.bigint();
  for (const [seat, m] of steps) G = move(G, m, seat);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const money = JSON.stringify(G.players.map((p) => p.money));
  if (!ended(G) || money !== JSON.stringify(expected.players.map((p) => p.money))) {
    throw new Error(`seed ${seed}: the replay did not reach the recorded end`);
  }
  return ms;
}

function recordAndReplay(seed, players) {
  const record = [];
  const { G } = play(seed, players, record);
  return replay(seed, players, record, G);
}

const seeds = seedsArg.split(",").map(Number);
const players = Number(playersArg);
for (let i = 0; i < Number(warmupArg); i++) recordAndReplay(1_000_000 + i, players);
const out = { node: process.version, seeds, ms: [], replay_ms: [], moves: [], rounds: [] };
for (const seed of seeds) {
  const start = process.hrtime.bigint();
  const { moves, rounds } = play(seed, players);
  out.ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  out.moves.push(moves);
  out.rounds.push(rounds);
}
for (const seed of seeds) out.replay_ms.push(recordAndReplay(seed, players));
console.log(JSON.stringify(out));
