-- The two database roles of the service and its database (psql, as a superuser; safe to
-- run again). scripts/services.sh runs it on every start, docker-compose.yml at init:
--
--   psql -v owner=game_owner -v owner_password=... -v runtime=game \
--        -v runtime_password=... -v dbname=game -f scripts/db_roles.sql
--
-- owner    owns the database and every table: migrations (DDL) run as it. CREATEDB so
--          the test suite, which connects as the owner, can create its test database.
-- runtime  what the web server and the workers connect as. It owns nothing; its table
--          privileges are granted after every migrate (config/database_roles.py), so a
--          table a future migration adds gets them too.
\set ON_ERROR_STOP on

SELECT format('CREATE ROLE %I LOGIN CREATEDB PASSWORD %L', :'owner', :'owner_password')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', :'runtime', :'runtime_password')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'runtime') \gexec
-- Before issue 9 the runtime role was also the owner (with CREATEDB): take that back.
SELECT format('ALTER ROLE %I NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS', :'runtime') \gexec

SELECT format('CREATE DATABASE %I OWNER %I', :'dbname', :'owner')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'dbname') \gexec
SELECT format('ALTER DATABASE %I OWNER TO %I', :'dbname', :'owner') \gexec

\connect :dbname
-- A database created before issue 9: whatever the runtime role owned (tables, sequences,
-- the trigger function) now belongs to the owner. A no-op once done.
SELECT format('REASSIGN OWNED BY %I TO %I', :'runtime', :'owner') \gexec
-- Only the owner creates objects (PostgreSQL < 15 lets everybody create in public).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', :'dbname', :'runtime') \gexec
SELECT format('GRANT USAGE ON SCHEMA public TO %I', :'runtime') \gexec
