-- A database of many learners for scripts/db-scale/measure.ts (docs/operations.md), in minutes: everything is written by
-- SQL in PostgreSQL itself, with the app's triggers off (replica role) and the columns and aggregates they keep written
-- here as they would be. Run it on a freshly migrated, empty database (start the app on it once, or
-- `npm run db:move-to-postgres` from an empty data directory):  psql "$DATABASE_URL" -v learners=10000 -f seed.sql
--
-- :learners learners x 1000 terms, one review log per term; bench+1@example.com is the measured learner.
\timing on
set session_replication_role = replica;
set statement_timeout = 0;
\set ON_ERROR_STOP on
-- Secondary indexes of the large tables are dropped for the load and built again afterwards (much faster than keeping
-- them up to date row by row); their definitions are kept in a temporary table meanwhile.
create temporary table seed_indexes as
  select i.indexname, i.indexdef from pg_indexes i
  where i.schemaname = 'public' and i.tablename in ('terms', 'review_logs', 'term_stage_days')
    and not exists (select from pg_constraint c where c.conname = i.indexname);
do $$ declare r record; begin
  for r in select indexname from seed_indexes loop execute format('drop index %I', r.indexname); end loop;
end $$;
insert into users (email, created_at, welcomed_at)
select 'bench+' || n || '@example.com', now() - interval '400 days', now() - interval '400 days' from generate_series(1, :learners) n;
insert into terms (user_id, language, text, meaning, part_of_speech, created_at, updated_at, due, stability,
                   difficulty, scheduled_days, reps, state, last_review, created_day, last_review_day, due_day)
select u.id, 'en', 'word-' || n, 'meaning ' || n, 'noun', c, c, d, 1 + n % 30, 5, n % 30, 1 + n % 5,
       case when n % 10 = 0 then 0 else 2 end, r, c::date, r::date, d::date
from users u cross join generate_series(1, 1000) n
cross join lateral (select now() - (n % 365) * interval '1 day' as c, now() + ((n % 40) - 10) * interval '1 day' as d,
                    now() - (n % 300) * interval '1 day' as r) t;
insert into review_logs (term_id, rating, state, reviewed_at, scheduled_days, user_id, day, due_day, language)
select id, 1 + reps % 4, 2, last_review, scheduled_days, user_id, last_review_day, due_day, language from terms;
insert into term_stage_days (term_id, user_id, day, tolearn, learned)
select id, user_id, created_day, (state = 0)::int, (state <> 0)::int from terms;
insert into learner_days (user_id, day, good, new_terms, tolearn, learned)
select user_id, day, sum(good)::int, sum(added)::int, sum(tolearn)::int, sum(learned)::int from (
  select user_id, day, 1 as good, 0 as added, 0 as tolearn, 0 as learned from review_logs
  union all select user_id, created_day, 0, 1, (state = 0)::int, (state <> 0)::int from terms) x
group by user_id, day;
insert into learner_language_days (user_id, day, language, graded, passed, review_graded)
select user_id, day, language, count(*)::int, count(*) filter (where rating > 1)::int, count(*)::int
from review_logs group by 1, 2, 3;
do $$ declare r record; begin
  for r in select indexdef from seed_indexes loop execute r.indexdef; end loop;
end $$;
set session_replication_role = default;
vacuum analyze;
select count(*) as terms from terms;
select count(*) as review_logs from review_logs;
