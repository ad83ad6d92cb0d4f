// Scores the neutral boards of bench/railroad_ink_peer.py with davidxmoody/railroad-ink-ai, whose
// TypeScript (src/logic/) bench/railroad_ink_peer.py bundles at run time into a temp dir; none of
// its code lives here.
// Usage: node rink_ai_score.mjs BUNDLE_MJS BOARDS_JSON REPS
// Prints {"node", "lines", "seconds"}: each board's scoring lines, and each repetition's time
// for scoring every board.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [bundle, boardsFile, repsArg] = process.argv.slice(2);
const { calculateScore, Board, Grid } = await import(pathToFileURL(bundle).href);

// The peer spells a side D (road), L (rail) or _ (blank), N E S W, and a tile is one piece
// joining all its sides unless a trailing "o" makes it an overpass (N-S apart from E-W).
const KIND = { H: "D", R: "L", ".": "_" };

function peerTile(cell) {
  const sides = [...cell.sides].map((s) => KIND[s]).join("");
  if (cell.segments.length === 1) return sides;
  // The neutral segments spell their sides in N E S W order.
  if ([...cell.segments].sort().join(",") === "EW,NS") return `${sides}o`;
  throw new Error(`the peer has no tile ${cell.sides} ${cell.segments}`);
}

// The peer's exits are fixed; check they are the boards' exits before comparing any score.
function checkExits(exits, size) {
  const at = (e) => ({
    y: e.side === "N" ? 0 : e.side === "S" ? size - 1 : e.index,
    x: e.side === "W" ? 0 : e.side === "E" ? size - 1 : e.index,
  });
  const side = { N: 0, E: 1, S: 2, W: 3 };
  const theirs = new Map(Board.exitSlots.entries().map(([p, slot]) => [`${p.y},${p.x}`, slot]));
  if (theirs.size !== exits.length) throw new Error("the peer has another number of exits");
  for (const e of exits) {
    const p = at(e);
    const slot = theirs.get(`${p.y},${p.x}`);
    if (!slot || slot[side[e.side]] !== KIND[e.type]) {
      throw new Error(`the peer has no ${e.type} exit at ${e.side}${e.index}`);
    }
  }
}

function toBoard(cells, size) {
  const placed = [];
  cells.forEach((cell, i) => {
    if (cell !== null) placed.push({ y: Math.floor(i / size), x: i % size, v: peerTile(cell) });
  });
  // Built whole rather than tile by tile: the scoring reads only the tiles, and our boards'
  // drawing order is not the peer's to check.
  return new Board({ tiles: Grid.fromList(placed), openSlots: Board.exitSlots });
}

const data = JSON.parse(readFileSync(boardsFile, "utf8"));
if (data.size !== Board.size) throw new Error(`the peer's board is ${Board.size} spaces wide`);
checkExits(data.exits, data.size);
const boards = data.boards.map((b) => toBoard(b.cells, data.size));

const lines = boards.map((board) => {
  const s = calculateScore(board);
  return {
    network_points: s.exits,
    longest_highway: s.road,
    longest_railway: s.rail,
    centre: s.center,
    errors: -s.errors,
    total: s.total,
  };
});

const seconds = [];
let sink = 0;
for (let r = 0; r < Number(repsArg); r++) {
  const start = process.hrtime.bigint();
  for (const board of boards) sink += calculateScore(board).total;
  seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
}
// The sink is printed so that no repetition's work can be skipped.
console.log(JSON.stringify({ node: process.version, lines, seconds, sink }));
