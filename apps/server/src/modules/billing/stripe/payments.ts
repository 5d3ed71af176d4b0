import type { PaymentStatus } from "@parley/contract";
import type { AppContext } from "../../../context.ts";
import { AppError } from "../../../lib/app-error.ts";
import { requireOwner, scoped, type Tenant, type TenantScope } from "../../../lib/tenant-scope.ts";
import { findUserById } from "../../users/service.ts";
import { getTier } from "../../users/tiers.ts";
import { findMembership, planOwnerOf } from "../../workspaces/service.ts";
import { billingAccounts } from "../schema.ts";
import { PaymentAnswerError, PaymentProviderError, StripeApi, type TierForSale } from "./stripe-api.ts";

export const PAYMENTS_OFF = "Payments are not configured on this server.";
export const NO_TIER_TO_BUY = "This workspace's plan has no tier with a price to subscribe to.";
export const UNREADABLE_ANSWER = "The payment provider sent an answer Parley could not read.";

/** The payment provider's client, or null when STRIPE_SECRET_KEY is unset (payments off). */
function paymentsApi(ctx: AppContext): StripeApi | null {
  const { secretKey, apiUrl } = ctx.config.stripe;
  return secretKey ? new StripeApi(secretKey, apiUrl) : null;
}

function requirePayments(ctx: AppContext): StripeApi {
  const api = paymentsApi(ctx);
  if (!api) throw new AppError("not_found", PAYMENTS_OFF);
  return api;
}

async function customerOf(ctx: AppContext, tenant: TenantScope): Promise<string | null> {
  const [row] = await ctx.db.select().from(billingAccounts).where(scoped(billingAccounts, tenant).where());
  return row?.customerId ?? null;
}

/** The tier of the workspace's plan owner, when it has a price. */
async function tierForSale(ctx: AppContext, workspaceId: string): Promise<TierForSale | null> {
  const owner = await planOwnerOf(ctx.db, workspaceId);
  const tierId = owner ? (await findUserById(ctx.db, owner))?.tierId : null;
  const tier = tierId ? await getTier(ctx.db, tierId).catch(() => null) : null;
  return tier && tier.price > 0 ? { id: tier.id, name: tier.name, price: tier.price } : null;
}

/** The workspace's customer at the provider, created (with its billing email) the first time. */
async function ensureCustomer(ctx: AppContext, api: StripeApi, tenant: Tenant): Promise<string> {
  const existing = await customerOf(ctx, tenant);
  if (existing) return existing;
  const membership = await findMembership(ctx.db, tenant.userId, tenant.workspaceId);
  if (!membership) throw new AppError("not_found", "Workspace not found.");
  const created = await api.createCustomer({
    name: membership.workspace.name,
    email: membership.workspace.billingEmail ?? null,
    workspaceId: tenant.workspaceId,
  });
  // Two owners clicking at once: the first customer saved wins, the other is never used.
  await ctx.db
    .insert(billingAccounts)
    .values(scoped(billingAccounts, tenant).values({ customerId: created }))
    .onConflictDoNothing();
  return (await customerOf(ctx, tenant)) ?? created;
}

export async function paymentStatus(ctx: AppContext, tenant: Tenant): Promise<PaymentStatus> {
  if (!paymentsApi(ctx)) return { enabled: false, can_subscribe: false, has_customer: false };
  return {
    enabled: true,
    can_subscribe: (await tierForSale(ctx, tenant.workspaceId)) !== null,
    has_customer: (await customerOf(ctx, tenant)) !== null,
  };
}

const billingPage = (ctx: AppContext) => `${ctx.config.publicUrl}/billing`;

/** A checkout page subscribing the workspace to its plan's tier (owners). */
export async function checkoutUrl(ctx: AppContext, tenant: Tenant): Promise<string> {
  requireOwner(tenant);
  const api = requirePayments(ctx);
  const tier = await tierForSale(ctx, tenant.workspaceId);
  if (!tier) throw new AppError("conflict", NO_TIER_TO_BUY);
  return withProviderErrors(ctx, async () => {
    const customer = await ensureCustomer(ctx, api, tenant);
    const price = await api.tierPrice(tier);
    return api.checkoutSession({
      customer,
      price,
      successUrl: `${billingPage(ctx)}?checkout=done`,
      cancelUrl: billingPage(ctx),
    });
  });
}

/** The provider's customer portal (invoices, payment method, cancellation) for the workspace (owners). */
export async function portalUrl(ctx: AppContext, tenant: Tenant): Promise<string> {
  requireOwner(tenant);
  const api = requirePayments(ctx);
  return withProviderErrors(ctx, async () => {
    const customer = await ensureCustomer(ctx, api, tenant);
    return api.portalSession({ customer, returnUrl: billingPage(ctx) });
  });
}

async function withProviderErrors<T>(ctx: AppContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaymentAnswerError) {
      // What the operator needs to see what changed at the provider: where, status, field names and types.
      const { path, status, shape, problems } = error;
      ctx.calls.log.error({ path, status, shape, problems }, "unreadable answer from the payment provider");
      throw new AppError("bad_gateway", UNREADABLE_ANSWER);
    }
    if (error instanceof PaymentProviderError) {
      throw new AppError("bad_gateway", `The payment provider refused the request: ${error.message}`);
    }
    if (error instanceof Error && (error.name === "TimeoutError" || error instanceof TypeError)) {
      throw new AppError("bad_gateway", "The payment provider could not be reached.");
    }
    throw error;
  }
}
