import { describeBridge } from "./support/bridge-suite.ts";
import { twilioVendor } from "./support/carrier-vendors.ts";

/** Phone calls over Twilio Media Streams, end to end against the local Twilio double. */

describeBridge(twilioVendor());
