export * from "../auth/auth.schema";
