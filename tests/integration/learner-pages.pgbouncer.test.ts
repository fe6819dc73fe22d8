import { pooledDatabaseEnv } from "../support/pooler.ts";
import { defineLearnerPagesSuite } from "./learner-pages-suite.ts";

// Two instances as managed hosts run them: requests through PgBouncer in transaction mode, LISTEN on PostgreSQL itself.
defineLearnerPagesSuite("PostgreSQL behind PgBouncer (transaction mode)", pooledDatabaseEnv);
