import { rmSync } from "node:fs";
import { tempDir } from "../support/temp.ts";
import { definePublicListsSuite } from "./public-lists-suite";

definePublicListsSuite("PGlite", async () => {
  const dataDir = tempDir("upgrade");
  return {
    env: { DATA_DIR: dataDir },
    dataDir,
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
});
