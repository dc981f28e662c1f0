// Writes records with tsshogi, for koma to read (tests/records/check.py).
//
//   node export.js LIST.json   (LIST: [{"usi": "position startpos moves ...", "out": PATH_PREFIX}])
//
// Each game is written as PATH_PREFIX.tsshogi.{kif,ki2,csa,jkf}, in UTF-8,
// ending with a resignation.

"use strict";
const fs = require("fs");
const tsshogi = require("tsshogi");

const list = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
for (const item of list) {
  const record = tsshogi.Record.newByUSI(item.usi);
  if (record instanceof Error) throw record;
  record.goto(Number.MAX_SAFE_INTEGER);
  record.append(tsshogi.specialMove(tsshogi.SpecialMoveType.RESIGN));
  record.metadata.setStandardMetadata(tsshogi.RecordMetadataKey.BLACK_NAME, "tsshogi sente");
  record.metadata.setStandardMetadata(tsshogi.RecordMetadataKey.WHITE_NAME, "tsshogi gote");
  const out = {
    kif: tsshogi.exportKIF(record),
    ki2: tsshogi.exportKI2(record),
    csa: tsshogi.exportCSA(record),
    jkf: tsshogi.exportJKFString(record),
  };
  for (const [ext, text] of Object.entries(out)) {
    fs.writeFileSync(`${item.out}.tsshogi.${ext}`, text);
  }
}
