// Scores the neutral boards of bench/railroad_ink_peer.py with ondras/rri, loaded at run time
// from a built checkout (its TypeScript compiled into <peer>/.build/); none of its code lives here.
// Usage: node rri_score.mjs PEER_DIR BOARDS_JSON REPS
// Prints {"node", "lines", "seconds"}: each board's scoring lines, and each repetition's time
// for scoring every board.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [peerDir, boardsFile, repsArg] = process.argv.slice(2);
const load = (name) => import(pathToFileURL(join(peerDir, ".build", name)).href);
const { default: Board } = await load("board.js");
const { default: Tile } = await load("tile.js");
const { all: TRANSFORMS } = await load("transform.js");
const { get: getScore, sum, mapExits } = await load("score.js");

// The peer's base-game shape ids: its lake and forest shapes never occur on our boards.
const SHAPES = [
  "rail-i", "road-i", "rail-t", "road-t", "rail-l", "road-l", "rail-road-l", "rail-road-i",
  "bridge", "cross-road-road-rail-road", "cross-road-rail-rail-rail", "cross-road-rail-rail-road",
  "cross-road-rail-road-rail", "cross-rail", "cross-road",
];
const SIDES = "NESW";
const KIND = { 0: ".", 1: "R", 2: "H" }; // the peer's NONE, RAIL, ROAD edge types

// One spelling per drawn tile: route kind per side N E S W, then the sides each inner segment
// joins, so that the board's tile and the peer's shape + transform meet on the same key.
function key(sides, segments) {
  const order = (seg) => [...seg].sort((a, b) => SIDES.indexOf(a) - SIDES.indexOf(b)).join("");
  return `${sides}|${[...new Set(segments.map(order))].sort().join(",")}`;
}

function peerKey(tile) {
  let sides = "";
  const segments = [];
  for (let d = 0; d < 4; d++) {
    const edge = tile.getEdge(d);
    const kind = KIND[edge.type];
    if (kind === undefined) throw new Error(`unexpected peer edge type ${edge.type}`);
    sides += kind;
    if (kind !== ".") segments.push([d, ...edge.connects].map((s) => SIDES[s]).join(""));
  }
  return key(sides, segments);
}

const peerTiles = new Map();
for (const sid of SHAPES) {
  for (const tid of TRANSFORMS) {
    const k = peerKey(new Tile(sid, tid));
    if (!peerTiles.has(k)) peerTiles.set(k, { sid, tid });
  }
}

// The peer's exits are fixed; check they are the boards' exits before comparing any score.
function checkExits(board, exits, size) {
  const inward = { N: 2, E: 3, S: 0, W: 1 };
  for (const e of exits) {
    const x = e.side === "W" ? 0 : e.side === "E" ? size + 1 : e.index + 1;
    const y = e.side === "N" ? 0 : e.side === "S" ? size + 1 : e.index + 1;
    const tile = board._cells.at(x, y).tile;
    if (!tile || KIND[tile.getEdge(inward[e.side]).type] !== e.type) {
      throw new Error(`the peer has no ${e.type} exit at ${e.side}${e.index}`);
    }
  }
}

function toBoard(cells, size) {
  const placed = [];
  cells.forEach((cell, i) => {
    if (cell === null) return;
    const found = peerTiles.get(key(cell.sides, cell.segments));
    if (!found) throw new Error(`the peer has no tile ${cell.sides} ${cell.segments}`);
    // A fresh object per cell: the peer's tiles share and mutate their data object.
    const tile = { sid: found.sid, tid: found.tid };
    placed.push({ x: (i % size) + 1, y: Math.floor(i / size) + 1, round: 1, tile });
  });
  return new Board().fromJSON(placed);
}

const data = JSON.parse(readFileSync(boardsFile, "utf8"));
const boards = data.boards.map((b) => toBoard(b.cells, data.size));
checkExits(boards[0], data.exits, data.size);

const lines = boards.map((board) => {
  const s = getScore(board._cells);
  return {
    networks: [...s.exits].sort((a, b) => b - a),
    network_points: mapExits(s).reduce((a, b) => a + b, 0),
    longest_highway: s.road.length,
    longest_railway: s.rail.length,
    centre: s.center,
    errors: s.deadends.length,
    total: sum(s),
  };
});

const seconds = [];
let sink = 0;
for (let r = 0; r < Number(repsArg); r++) {
  const start = process.hrtime.bigint();
  for (const board of boards) sink += sum(getScore(board._cells));
  seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
}
// The sink is printed so that no repetition's work can be skipped.
console.log(JSON.stringify({ node: process.version, lines, seconds, sink }));
