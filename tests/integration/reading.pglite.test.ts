import { defineReadingSuite } from "./reading-suite";

defineReadingSuite("PGlite", async () => ({}));
