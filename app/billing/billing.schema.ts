import { boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "../auth/auth.schema";

/**
 * A learner's plan as Stripe's webhooks last described it (one subscription per learner). `eventAt` is the creation
 * time of the newest event applied, so an older event arriving late never overwrites a newer state.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    subscriptionId: text("subscription_id").notNull().unique(),
    plan: text("plan").notNull(),
    period: text("period").notNull(),
    /** active, past_due, canceling (at period end) or ended. */
    status: text("status").notNull(),
    amount: integer("amount"),
    currency: text("currency"),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    paymentFailed: boolean("payment_failed").notNull().default(false),
    eventAt: timestamp("event_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("subscriptions_customer_idx").on(table.customerId)],
);

/** Campaign pledges paid through Checkout; a pledge without an account is known by its e-mail address only. */
export const pledges = pgTable(
  "pledges",
  {
    checkoutSessionId: text("checkout_session_id").primaryKey(),
    paymentIntentId: text("payment_intent_id").unique(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Stored lower-cased, so a pledge can be found (and forgotten) by address. */
    email: text("email").notNull(),
    amount: integer("amount").notNull(),
    refunded: integer("refunded").notNull().default(0),
    currency: text("currency").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("pledges_email_idx").on(table.email), index("pledges_user_idx").on(table.userId)],
);

/** Every Stripe event applied, by id: a replayed delivery changes nothing. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
