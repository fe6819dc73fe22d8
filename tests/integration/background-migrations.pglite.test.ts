import { defineBackgroundMigrationsSuite } from "./background-migrations-suite";

defineBackgroundMigrationsSuite("PGlite", async () => ({}));
