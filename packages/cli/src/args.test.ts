import { describe, expect, it } from "vitest";
import { parseCommand } from "./args.ts";

const SUITE = "0f0e0d0c-0b0a-4909-8807-060504030201";
const CASE_A = "a0000000-0000-4000-8000-00000000000a";
const CASE_B = "b0000000-0000-4000-8000-00000000000b";
const FLAGS = ["test", "--suite", SUITE, "--url", "https://parley.example.com/", "--key", "pk_live_abc"];

describe("parseCommand", () => {
  it("reads every flag of `test`", () => {
    const command = parseCommand(
      [
        ...FLAGS,
        "--junit",
        "reports/parley.xml",
        "--repeat",
        "3",
        "--case",
        CASE_A,
        "--case",
        CASE_B,
        "--assistant-version",
        "2",
        "--timeout",
        "90",
        "--quiet",
      ],
      {},
    );
    expect(command).toEqual({
      kind: "test",
      options: {
        suiteId: SUITE,
        url: "https://parley.example.com",
        key: "pk_live_abc",
        junitPath: "reports/parley.xml",
        repeat: 3,
        caseIds: [CASE_A, CASE_B],
        version: 2,
        timeoutSeconds: 90,
        quiet: true,
      },
    });
  });

  it("takes the defaults: every case, the suite's repeat, 1800 s, no report", () => {
    const command = parseCommand(FLAGS, {});
    expect(command).toMatchObject({
      kind: "test",
      options: {
        junitPath: null,
        repeat: undefined,
        caseIds: undefined,
        version: undefined,
        timeoutSeconds: 1800,
        quiet: false,
      },
    });
  });

  it("reads the URL and key from PARLEY_URL and PARLEY_API_KEY when the flags are absent", () => {
    const command = parseCommand(["test", "--suite", SUITE], {
      PARLEY_URL: "http://127.0.0.1:3000/parley/",
      PARLEY_API_KEY: "pk_live_env",
    });
    expect(command).toMatchObject({
      kind: "test",
      options: { url: "http://127.0.0.1:3000/parley", key: "pk_live_env" },
    });
  });

  it("prefers the flags to the environment", () => {
    const command = parseCommand(FLAGS, { PARLEY_URL: "http://other.example", PARLEY_API_KEY: "pk_live_env" });
    expect(command).toMatchObject({ options: { url: "https://parley.example.com", key: "pk_live_abc" } });
  });

  it("accepts --flag=value and comma-separated case ids", () => {
    const command = parseCommand([...FLAGS, `--case=${CASE_A},${CASE_B}`, "--repeat=2"], {});
    expect(command).toMatchObject({ options: { caseIds: [CASE_A, CASE_B], repeat: 2 } });
  });

  it.each([
    [[], "main"],
    [["--help"], "main"],
    [["-h"], "main"],
    [["help"], "main"],
    [["help", "test"], "test"],
    [["test", "--help"], "test"],
    [["test", "-h", "--suite", "nonsense"], "test"],
  ])("%j asks for help on %s", (argv, topic) => {
    expect(parseCommand(argv, {})).toEqual({ kind: "help", topic });
  });

  it.each([
    [["deploy"], 'Unknown command "deploy".'],
    [["test", "--url", "http://x", "--key", "k"], "Name the suite to run: --suite <id>."],
    [["test", "--suite", "bookings", "--url", "http://x", "--key", "k"], 'not "bookings"'],
    [["test", "--suite", SUITE, "--key", "k"], "Give the server's URL"],
    [["test", "--suite", SUITE, "--url", "parley.example.com", "--key", "k"], "must be an http(s) URL"],
    [["test", "--suite", SUITE, "--url", "ftp://parley.example.com", "--key", "k"], "must be an http(s) URL"],
    [["test", "--suite", SUITE, "--url", "http://x"], "Give an API key"],
    [[...FLAGS, "--repeat", "0"], "--repeat must be a whole number from 1 to 5."],
    [[...FLAGS, "--repeat", "6"], "--repeat must be a whole number from 1 to 5."],
    [[...FLAGS, "--repeat", "two"], "--repeat must be a whole number from 1 to 5."],
    [[...FLAGS, "--case", "refund-flow"], "--case must be a test case's id"],
    [[...FLAGS, "--assistant-version", "0"], "--assistant-version must be a version's number"],
    [[...FLAGS, "--assistant-version", "v2"], "--assistant-version must be a version's number"],
    [[...FLAGS, "--timeout", "0"], "--timeout must be a number of seconds above 0"],
    [[...FLAGS, "--timeout", "soon"], "--timeout must be a number of seconds above 0"],
    [[...FLAGS, "--verbose"], "Unknown option '--verbose'"],
    [[...FLAGS, "--junit"], "argument missing"],
    [[...FLAGS, "extra"], 'Unexpected argument "extra".'],
  ])("%j is a usage error", (argv, message) => {
    const command = parseCommand(argv, {});
    expect(command.kind).toBe("usage-error");
    expect(command.kind === "usage-error" && command.message).toContain(message);
  });
});
