/**
 * The embedded database, written only by the server that opened it on its thread, announces each learner whose row
 * changed (drizzle/0021) before it answers the write; the server keeps each session's learner in memory until such an
 * announcement names them. PostgreSQL, written by other instances too, announces every change (drizzle/0026) to each
 * instance's listening connection shortly after commit; an instance forgets a learner's sessions after their own write.
 * Statements are counted at the driver's client (drizzle looks its `query` up on each call).
 */
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createSession, destroyAllSessions, LEARNER_VERSION_COOKIE, sessionUser } from "../../app/auth/session.server";
import { findOrCreateUser } from "../../app/auth/users.server";
import type { Database } from "../../app/db/db.server";
import { signedCookie } from "../../app/http/cookies.server";
import { learnerChangesOf } from "../../app/db/learner-changes";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";
import { everyAnnouncementHeard } from "../support/announcements.ts";

const MIGRATIONS = `${PROJECT_ROOT}/drizzle`;

/** Counts the statements sent through a handle's client from now on. */
function countStatements(handle: DatabaseHandle): { readonly count: number } {
  const client = handle.client as unknown as { query: (...args: unknown[]) => unknown };
  const query = client.query.bind(client);
  const counter = { count: 0 };
  client.query = (...args: unknown[]) => {
    counter.count++;
    return query(...args);
  };
  return counter;
}

const dataVersionOf = async (db: Database, userId: string) => {
  const { rows } = (await db.execute(sql`select data_version from users where id = ${userId}`)) as unknown as {
    rows: { data_version: string | number }[];
  };
  return Number(rows[0]!.data_version);
};

/** A write of a learner's data that leaves their vocabulary as it is: only their data version moves. */
const editMeanings = (db: Database, userId: string) =>
  db.execute(sql`update terms set meaning = meaning || '!' where user_id = ${userId}`);

const requestWith = (cookie: string) =>
  new Request("http://localhost/account/home", { headers: { Cookie: cookie.split(";")[0]! } });

const addTerm = (db: Database, userId: string, text: string) =>
  db.execute(
    sql`insert into terms (user_id, language, text, meaning, part_of_speech) values (${userId}, 'de', ${text}, 'm', 'noun')`,
  );

describe("the embedded database on its thread", () => {
  const dataDir = tempDir("learner-changes");
  let handle: DatabaseHandle;
  let db: Database;

  beforeAll(async () => {
    handle = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS, worker: true });
    db = handle.db;
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("announces a learner whose row changed before answering the write, at commit, never a rolled-back one", async () => {
    const changes = learnerChangesOf(db)!;
    expect(changes).not.toBeNull();
    const heard: string[] = [];
    const versions: (number | null)[] = [];
    changes.subscribe(({ learnerId, dataVersion }) => {
      heard.push(learnerId);
      versions.push(dataVersion);
    });
    const ada = await findOrCreateUser(db, `ada-${process.pid}@example.test`);
    const bo = await findOrCreateUser(db, `bo-${process.pid}@example.test`);
    await addTerm(db, ada.id, "Haus");
    heard.length = 0;
    versions.length = 0;

    // A write of her data moves her row (a trigger): heard by the time the write is answered.
    await editMeanings(db, ada.id);
    expect(heard).toEqual([ada.id]);
    await db.execute(sql`update users set email = ${`bo2-${process.pid}@example.test`} where id = ${bo.id}`);
    expect(heard).toEqual([ada.id, bo.id]);
    // Her write moved her data version alone, announced with it; his e-mail changed: his id alone.
    expect(versions).toEqual([await dataVersionOf(db, ada.id), null]);

    // Two writes in one transaction: announced at its end (one for each version the row took), the last with the
    // version it ended at.
    await db.transaction(async (tx) => {
      await editMeanings(tx as unknown as Database, ada.id);
      await editMeanings(tx as unknown as Database, ada.id);
      expect(heard).toHaveLength(2);
    });
    expect(heard).toEqual([ada.id, bo.id, ada.id, ada.id]);
    expect(versions.at(-1)).toBe(await dataVersionOf(db, ada.id));

    // A transaction that fails announces nothing.
    await expect(
      db.transaction(async (tx) => {
        await addTerm(tx as unknown as Database, bo.id, "Tisch");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(heard).toHaveLength(4);

    // A row that goes is announced too (by its id alone); a statement that changes nothing is not.
    await db.execute(sql`update users set email = email where id = ${ada.id}`);
    expect(heard).toHaveLength(4);
    await db.execute(sql`delete from users where id = ${bo.id}`);
    expect(heard.at(-1)).toBe(bo.id);
    expect(versions.at(-1)).toBeNull();
  });

  it("keeps a session read while other learners' changes were announced, not one read while one of hers was", async () => {
    const changes = learnerChangesOf(db)!;
    const eb = await findOrCreateUser(db, `eb-${process.pid}@example.test`);
    const fi = await findOrCreateUser(db, `fi-${process.pid}@example.test`);
    const cookie = await createSession(db, eb.id);
    /**
     * Announces while the next statement is in flight, as PostgreSQL's listener hears other instances' writes while a
     * read is under way (the payloads are those the database sends).
     */
    const announcingDuring = (...payloads: (string | "lost")[]) => {
      const client = handle.client as unknown as { query: (...args: unknown[]) => unknown };
      const query = client.query;
      client.query = (...args: unknown[]) => {
        client.query = query;
        const result = query.apply(client, args);
        for (const payload of payloads) {
          if (payload === "lost") {
            changes.lost();
            changes.resumed();
          } else changes.announce(payload);
        }
        return result;
      };
    };
    /** Reads her session once with `payloads` announced during the read: whether what was read was kept. */
    const keptAfter = async (...payloads: (string | "lost")[]) => {
      changes.announce(eb.id);
      announcingDuring(...payloads);
      const statements = countStatements(handle);
      const read = await sessionUser(db, requestWith(cookie));
      expect(statements.count).toBe(1);
      const again = await sessionUser(db, requestWith(cookie));
      expect(again).toEqual(read);
      return again === read && statements.count === 1;
    };
    const version = await dataVersionOf(db, eb.id);

    expect(await keptAfter()).toBe(true);
    // Other learners' writes, sign-ins and sign-outs, however many, leave her row as it was read.
    expect(await keptAfter(`${fi.id} 41`, fi.id, `${fi.id} 42`)).toBe(true);
    // A write of hers the read already shows (its version at most the one read) too.
    expect(await keptAfter(`${eb.id} ${version}`, `${eb.id} ${version - 1}`)).toBe(true);
    // Not a newer version of hers, any other change of her row, the listener lost and back, or more announcements
    // than are remembered to tell.
    expect(await keptAfter(`${eb.id} ${version + 1}`)).toBe(false);
    expect(await keptAfter(`${fi.id} 43`, eb.id)).toBe(false);
    expect(await keptAfter("lost")).toBe(false);
    expect(await keptAfter(...Array.from({ length: 1_100 }, (_, n) => `${fi.id} ${100 + n}`))).toBe(false);
    expect(await keptAfter()).toBe(true);
  });

  it("keeps a session's learner in memory until a write, a sign-in or a sign-out of theirs is announced", async () => {
    const cy = await findOrCreateUser(db, `cy-${process.pid}@example.test`);
    const di = await findOrCreateUser(db, `di-${process.pid}@example.test`);
    const cookie = await createSession(db, cy.id);
    const statements = countStatements(handle);

    const first = await sessionUser(db, requestWith(cookie));
    expect(first?.id).toBe(cy.id);
    expect(statements.count).toBe(1);
    // Kept: the same learner without a statement, as often as asked.
    for (let i = 0; i < 3; i++) expect(await sessionUser(db, requestWith(cookie))).toBe(first);
    expect(statements.count).toBe(1);

    // Another learner's write leaves it kept; her own write makes the next request read her row again, moved: a new
    // term moves her vocabulary's version too.
    await addTerm(db, di.id, "Tür");
    expect(await sessionUser(db, requestWith(cookie))).toBe(first);
    const before = statements.count;
    await addTerm(db, cy.id, "Tür");
    const added = await sessionUser(db, requestWith(cookie));
    expect(statements.count).toBe(before + 2);
    expect(added!.dataVersion).toBeGreaterThan(first!.dataVersion);

    // A write that moves her data version alone (a grade, a meaning edited): the version kept moves to the one her row
    // now has, announced with it, without reading her row again.
    const edited = statements.count;
    await editMeanings(db, cy.id);
    const again = await sessionUser(db, requestWith(cookie));
    expect(statements.count).toBe(edited + 1);
    expect(again).toEqual({ ...added, dataVersion: await dataVersionOf(db, cy.id) });
    expect(again!.dataVersion).toBeGreaterThan(added!.dataVersion);
    expect(Object.isFrozen(again)).toBe(true);

    // Any other change of her row is read again: her e-mail address here.
    const renamed = `cy2-${process.pid}@example.test`;
    await db.execute(sql`update users set email = ${renamed} where id = ${cy.id}`);
    const reread = statements.count;
    const moved = await sessionUser(db, requestWith(cookie));
    expect(statements.count).toBe(reread + 1);
    expect(moved).toMatchObject({ email: renamed, dataVersion: await dataVersionOf(db, cy.id) });

    // A session's own row changed (its expiry here, "last seen" as she browses) is read again too.
    const expiring = await createSession(db, di.id);
    expect((await sessionUser(db, requestWith(expiring)))?.id).toBe(di.id);
    await db.execute(sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${di.id}`);
    expect(await sessionUser(db, requestWith(expiring))).toBeNull();

    // A sign-in on another device moves her data version. Signing out everywhere ends the kept session at once, and
    // so does a sign-out of that session alone.
    const other = await createSession(db, cy.id);
    const third = await sessionUser(db, requestWith(cookie));
    expect(third!.dataVersion).toBeGreaterThan(moved!.dataVersion);
    expect(third!.dataVersion).toBe(await dataVersionOf(db, cy.id));
    expect((await sessionUser(db, requestWith(other)))?.id).toBe(cy.id);
    expect(await destroyAllSessions(db, cy.id)).toBe(2);
    expect(await sessionUser(db, requestWith(cookie))).toBeNull();
    expect(await sessionUser(db, requestWith(other))).toBeNull();

    const alone = await createSession(db, cy.id);
    expect((await sessionUser(db, requestWith(alone)))?.id).toBe(cy.id);
    await db.execute(sql`delete from sessions where user_id = ${cy.id}`);
    expect(await sessionUser(db, requestWith(alone))).toBeNull();

    // An account deleted: its sessions go with it, and so does what was kept of them.
    const fresh = await createSession(db, di.id);
    expect((await sessionUser(db, requestWith(fresh)))?.id).toBe(di.id);
    await db.execute(sql`delete from users where id = ${di.id}`);
    expect(await sessionUser(db, requestWith(fresh))).toBeNull();
  });
});

describe("PostgreSQL, two instances", () => {
  let databaseUrl: string;
  let handle: DatabaseHandle;
  /** A second instance on the same database: its writes are announced to the first through the listener. */
  let other: DatabaseHandle;

  const keeping = (h: DatabaseHandle) => learnerChangesOf(h.db)?.keeping === true;

  /** Waits until an instance has heard every change committed so far (a sign-in's, before what is read next). */
  const allHeard = (h: DatabaseHandle) => everyAnnouncementHeard(h.db, learnerChangesOf(h.db)!);

  beforeAll(async () => {
    databaseUrl = await createDatabase(inject("pgUrl"), `learner_changes_${process.pid}_${Date.now()}`);
    handle = await openDatabase({ databaseUrl, dataDir: "", migrationsFolder: MIGRATIONS, listen: true });
    other = await openDatabase({ databaseUrl, dataDir: "", migrationsFolder: MIGRATIONS, listen: true });
    await vi.waitFor(() => expect(keeping(handle) && keeping(other)).toBe(true), { timeout: 10_000 });
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await other?.close();
  });

  it("keeps a session's learner until another instance's write, sign-in or sign-out of theirs is announced", async () => {
    const db = handle.db;
    const ed = await findOrCreateUser(db, `ed-${process.pid}@example.test`);
    const cookie = await createSession(db, ed.id);
    await allHeard(handle);
    const statements = countStatements(handle);
    const first = await sessionUser(db, requestWith(cookie));
    for (let i = 0; i < 3; i++) expect(await sessionUser(db, requestWith(cookie))).toBe(first);
    expect(statements.count).toBe(1);

    // A write of hers on the other instance moves her data version alone: announced with it, the version kept moves
    // without a read.
    await editMeanings(other.db, ed.id);
    const version = await dataVersionOf(other.db, ed.id);
    await vi.waitFor(async () => expect((await sessionUser(db, requestWith(cookie)))?.dataVersion).toBe(version));
    expect(statements.count).toBe(1);

    // Her e-mail address changed there: read again here.
    const renamed = `ed2-${process.pid}@example.test`;
    await other.db.execute(sql`update users set email = ${renamed} where id = ${ed.id}`);
    await vi.waitFor(async () => expect((await sessionUser(db, requestWith(cookie)))?.email).toBe(renamed));
    expect(statements.count).toBeGreaterThan(1);

    // Signed out everywhere on the other instance: her session kept here ends too.
    expect(await sessionUser(db, requestWith(cookie))).not.toBeNull();
    expect(await destroyAllSessions(other.db, ed.id)).toBe(1);
    await vi.waitFor(async () => expect(await sessionUser(db, requestWith(cookie))).toBeNull());
  });

  it("reads her row again when her browser says her last write left a newer version than the one kept", async () => {
    const db = handle.db;
    const fa = await findOrCreateUser(db, `fa-${process.pid}@example.test`);
    const cookie = await createSession(db, fa.id);
    await allHeard(handle);
    const kept = await sessionUser(db, requestWith(cookie));
    expect(await sessionUser(db, requestWith(cookie))).toBe(kept);
    // Her write went through a connection that turned the announcements off (as an instance whose announcement has
    // not arrived yet): only the version her browser brings back shows it.
    const silent = new Client({ connectionString: databaseUrl, options: "-c polyglot.learner_notify=off" });
    await silent.connect();
    try {
      await silent.query("update users set level = 'b1' where id = $1", [fa.id]);
    } finally {
      await silent.end();
    }
    expect(await sessionUser(db, requestWith(cookie))).toBe(kept);
    const version = await dataVersionOf(db, fa.id);
    const versionCookie = signedCookie(LEARNER_VERSION_COOKIE);
    const withVersion = async (value: string) => {
      const header = (await versionCookie.serialize(value)).split(";")[0]!;
      return new Request("http://localhost/account/home", {
        headers: { Cookie: `${cookie.split(";")[0]}; ${header}` },
      });
    };
    // Another learner's version, or an older one of hers, changes nothing.
    expect(await sessionUser(db, await withVersion(`someone-else ${version + 5}`))).toBe(kept);
    expect(await sessionUser(db, await withVersion(`${fa.id} ${kept!.dataVersion}`))).toBe(kept);
    const statements = countStatements(handle);
    const fresh = await sessionUser(db, await withVersion(`${fa.id} ${version}`));
    expect(fresh).toMatchObject({ level: "b1", dataVersion: version });
    expect(statements.count).toBe(1);
    // Read, it is kept again.
    expect(await sessionUser(db, await withVersion(`${fa.id} ${version}`))).toBe(fresh);
    expect(statements.count).toBe(1);
  });

  it("hears a change made outside the app too, as an operator's statement", async () => {
    const db = handle.db;
    const ha = await findOrCreateUser(db, `ha-${process.pid}@example.test`);
    const cookie = await createSession(db, ha.id);
    expect((await sessionUser(db, requestWith(cookie)))?.level).toBeNull();
    const operator = new Client({ connectionString: databaseUrl });
    await operator.connect();
    try {
      await operator.query("update users set level = 'c1' where id = $1", [ha.id]);
      await operator.query("delete from sessions where user_id = $1", [ha.id]);
    } finally {
      await operator.end();
    }
    await vi.waitFor(async () => expect(await sessionUser(db, requestWith(cookie))).toBeNull());
  });

  it("reads every session again while its listening connection is away, and keeps them again once it is back", async () => {
    const db = handle.db;
    const gu = await findOrCreateUser(db, `gu-${process.pid}@example.test`);
    const cookie = await createSession(db, gu.id);
    await allHeard(handle);
    await sessionUser(db, requestWith(cookie));
    const statements = countStatements(handle);
    expect((await sessionUser(db, requestWith(cookie)))?.id).toBe(gu.id);
    expect(statements.count).toBe(0);

    // Both instances' listeners cut by the server (as a restart or a network fault would).
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN learner_changed' and pid <> pg_backend_pid()",
      );
      expect(rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    await vi.waitFor(() => expect(keeping(handle)).toBe(false));
    // Nothing kept is trusted, and nothing read is kept: each request reads its session.
    expect((await sessionUser(db, requestWith(cookie)))?.id).toBe(gu.id);
    expect((await sessionUser(db, requestWith(cookie)))?.id).toBe(gu.id);
    expect(statements.count).toBe(2);

    // Back (it connects again by itself): read once, then kept.
    await vi.waitFor(() => expect(keeping(handle) && keeping(other)).toBe(true), { timeout: 10_000 });
    const before = statements.count;
    await sessionUser(db, requestWith(cookie));
    await sessionUser(db, requestWith(cookie));
    expect(statements.count).toBe(before + 1);
  });
});

describe("PostgreSQL opened by a script", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    const databaseUrl = await createDatabase(inject("pgUrl"), `learner_changes_script_${process.pid}_${Date.now()}`);
    handle = await openDatabase({ databaseUrl, dataDir: "", migrationsFolder: MIGRATIONS });
  }, 60_000);
  afterAll(() => handle?.close());

  it("announces nothing and reads the session on every request", async () => {
    const db = handle.db;
    expect(learnerChangesOf(db)).toBeNull();
    const ed = await findOrCreateUser(db, `ed-script-${process.pid}@example.test`);
    const cookie = await createSession(db, ed.id);
    const statements = countStatements(handle);
    for (let i = 0; i < 3; i++) expect((await sessionUser(db, requestWith(cookie)))?.id).toBe(ed.id);
    expect(statements.count).toBe(3);
  });
});
