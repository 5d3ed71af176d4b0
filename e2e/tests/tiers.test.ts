import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiCall, createUser } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { type Account, openHomePage } from "../support/browser.ts";
import { useSignedInProduct } from "../support/product.ts";

/**
 * Tiers against overrides, as an admin and a user see them: tier changes ask first and say what
 * happens to the limits; limits set by hand are marked "Override" on Users, Quotas and the profile.
 */
const product = useSignedInProduct();
let tierId: string;
let planPerson: Account;
let handPerson: Account;

const userIdOf = async (email: string) => {
  const { data } = await apiCall<{ data: { id: string; email: string; tier_id: string | null }[] }>(
    product.server.url,
    product.token,
    "GET",
    `/users?search=${encodeURIComponent(email)}`,
  );
  const user = data.find((u) => u.email === email);
  if (!user) throw new Error(`no user ${email}`);
  return user;
};

beforeAll(async () => {
  const tier = await apiCall<{ id: string }>(product.server.url, product.token, "POST", "/admin/tiers", {
    name: "Starter",
    max_assistants: 3,
    minutes_per_month: 100,
    concurrent_calls: 2,
    max_workspaces: 1,
    price: 9,
  });
  tierId = tier.id;
  planPerson = await createUser(product.server.url, product.token, "Plan Person");
  handPerson = await createUser(product.server.url, product.token, "Hand Person");
});

async function openProfileAs(browser: Browser, account: Account) {
  const page = await openHomePage(browser, product.server, account);
  page.setDefaultTimeout(60_000);
  await page.goto(`${product.server.url}/profile`);
  await page.getByRole("heading", { name: "Your limits" }).waitFor();
  return page;
}

async function openUserRow(search: string) {
  const { page } = product;
  await page.goto(`${product.server.url}/admin/users`);
  await page.getByRole("searchbox", { name: "Search by name or email" }).fill(search);
  await page.getByText("1–1 of 1").waitFor();
  await page.getByRole("button", { name: `Actions for ${search}` }).click();
}

describe("tier changes on the Users page", () => {
  it("ask for confirmation, then the user's limits follow the tier and leave with it", async () => {
    const { page } = product;
    await openUserRow("Plan Person");
    await page.getByRole("menuitem", { name: "Assign tier Starter with its defaults" }).click();
    const assign = page.getByRole("dialog", { name: "Assign tier Starter to Plan Person?" });
    await assign
      .getByText(
        "Plan Person gets the limits of tier Starter (3 assistants, 100 minutes a month, 2 concurrent calls, 1 workspaces). They follow later edits of the tier and leave with it.",
      )
      .waitFor();
    await assign.getByRole("button", { name: "Cancel" }).click();
    await assign.waitFor({ state: "detached" });
    expect((await userIdOf(`${planPerson.username}@e2e.test`)).tier_id).toBeNull();

    await page.getByRole("button", { name: "Actions for Plan Person" }).click();
    await page.getByRole("menuitem", { name: "Assign tier Starter with its defaults" }).click();
    await assign.getByRole("button", { name: "Assign tier" }).click();
    await page.getByText("Tier Starter assigned").waitFor();
    await page.getByRole("cell", { name: "Starter", exact: true }).waitFor();

    // A later edit of the tier reaches the user, who sees where the figures come from.
    await apiCall(product.server.url, product.token, "PATCH", `/admin/tiers/${tierId}`, { minutes_per_month: 150 });
    const own = await openProfileAs(product.browser, planPerson);
    await own.getByText("From your plan Starter. They change when an administrator edits the plan.").waitFor();
    await own.getByText("150", { exact: true }).waitFor();
    expect(await own.getByText("Override", { exact: true }).count()).toBe(0);

    await page.getByRole("button", { name: "Actions for Plan Person" }).click();
    await page.getByRole("menuitem", { name: "Remove tier" }).click();
    const remove = page.getByRole("dialog", { name: "Remove tier Starter from Plan Person?" });
    await remove
      .getByText("The limits that came from the tier leave with it: Plan Person will have no limits from a tier.")
      .waitFor();
    await remove.getByRole("button", { name: "Remove tier" }).click();
    await page.getByText("Tier removed").waitFor();
    await page.getByRole("cell", { name: "No tier" }).waitFor();

    await own.reload();
    await own.getByText("No plan or override limits apply to you.").waitFor();
    await own.context().close();
  });
});

describe("an override set by hand", () => {
  it("is marked on Quotas, Users and the user's own profile, and stays when the tier is removed", async () => {
    const { page } = product;
    const hand = await userIdOf(`${handPerson.username}@e2e.test`);
    await apiCall(product.server.url, product.token, "POST", `/admin/users/${hand.id}/assign-tier-with-defaults`, {
      tier_id: tierId,
    });

    await page.goto(`${product.server.url}/admin/quotas`);
    await page.getByRole("combobox", { name: "Choose a user" }).fill("Hand Person");
    await page.getByRole("option", { name: "Hand Person (hand.person@e2e.test)" }).click();
    await page
      .getByText(
        "No override: Hand Person follows tier Starter (3 assistants, 150 minutes a month, 2 concurrent calls, 1 workspaces), including its later edits.",
        { exact: false },
      )
      .waitFor();
    const minutes = page.getByRole("spinbutton", { name: "Minutes per month" });
    expect(await minutes.inputValue()).toBe("150");
    await minutes.fill("5000");
    await page.getByRole("button", { name: "Save override" }).click();
    await page.getByText("Override saved").waitFor();
    await page
      .getByRole("status")
      .filter({ hasText: "Override set by hand: these limits win over tier Starter until you remove the override." })
      .getByText("Override", { exact: true })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await openUserRow("Hand Person");
    await page.keyboard.press("Escape");
    const row = page.getByRole("row").filter({ hasText: "Hand Person" });
    await row.getByRole("cell").filter({ hasText: "Starter" }).getByText("Override", { exact: true }).waitFor();

    const own = await openProfileAs(product.browser, handPerson);
    await own
      .getByText(
        "An administrator set these limits for you by hand. They replace the limits of your plan Starter, also when the plan changes.",
      )
      .waitFor();
    await own.getByText("Override", { exact: true }).waitFor();
    await own.getByText("5,000", { exact: true }).waitFor();
    expect(await seriousViolations(own)).toEqual([]);

    // Removing the tier asks first and says the override stays; the user keeps its figures.
    await page.getByRole("button", { name: "Actions for Hand Person" }).click();
    await page.getByRole("menuitem", { name: "Remove tier" }).click();
    const remove = page.getByRole("dialog", { name: "Remove tier Starter from Hand Person?" });
    await remove
      .getByText("The limits that came from the tier leave with it. The override set by hand for Hand Person stays.")
      .waitFor();
    await remove.getByRole("button", { name: "Remove tier" }).click();
    await page.getByText("Tier removed").waitFor();
    await row.getByRole("cell").filter({ hasText: "No tier" }).getByText("Override", { exact: true }).waitFor();

    await own.reload();
    await own.getByText("An administrator set these limits for you by hand.", { exact: true }).waitFor();
    await own.getByText("5,000", { exact: true }).waitFor();
    await own.context().close();
  });
});
