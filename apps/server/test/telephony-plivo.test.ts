import { describeBridge } from "./support/bridge-suite.ts";
import { plivoVendor } from "./support/carrier-vendors.ts";

/** Phone calls over Plivo audio streams, end to end against the local Plivo double. */

describeBridge(plivoVendor());
