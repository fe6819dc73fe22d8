import { defineAuthSuite } from "./auth-suite";

// The embedded default: PGlite in a fresh DATA_DIR (startApp makes one).
defineAuthSuite("PGlite", async () => ({}));
