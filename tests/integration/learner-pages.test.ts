import { defineLearnerPagesSuite } from "./learner-pages-suite.ts";

defineLearnerPagesSuite("PostgreSQL", (databaseUrl) => ({ DATABASE_URL: databaseUrl }));
