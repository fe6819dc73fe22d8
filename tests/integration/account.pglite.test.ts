import { defineAccountSuite } from "./account-suite";

defineAccountSuite("PGlite", async () => ({}));
