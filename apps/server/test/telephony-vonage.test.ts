import { describeBridge } from "./support/bridge-suite.ts";
import { vonageVendor } from "./support/carrier-vendors.ts";

/** Phone calls over Vonage's WebSocket (binary L16) connection, end to end against the local Vonage double. */

describeBridge(vonageVendor());
