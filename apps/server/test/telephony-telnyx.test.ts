import { describeBridge } from "./support/bridge-suite.ts";
import { telnyxVendor } from "./support/carrier-vendors.ts";

/** Phone calls over Telnyx TeXML and media streaming, end to end against the local Telnyx double. */

describeBridge(telnyxVendor());
