export * from "../auth/auth.schema";
export * from "../learning/learning.schema";
