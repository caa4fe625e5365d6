/// The one page of the service (`GET /`): a button that makes a request (`POST /requests`) for
/// the page's own origin, passes it to the W3C Digital Credentials API
/// (`navigator.credentials.get`, protocol `org-iso-mdoc`), posts the wallet's answer to
/// `POST /requests/{id}/response` and shows the outcome and the verified elements.
///
/// It is static: nothing of a peer's is written into it, and the script shows what comes back
/// with `textContent` only, never as HTML. Untested here: it needs a browser that implements the
/// Digital Credentials API and a wallet on a phone.
enum VerifierPage {
    /// The page's HTML, with its script.
    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>mdoc online verifier</title>
        </head>
        <body>
        <h1>Show your mobile driving licence</h1>
        <p>This page asks your wallet, through the browser, for your family name, given name and
        whether you are over 18 (ISO/IEC TS 18013-7 Annex C, org-iso-mdoc).</p>
        <button id="verify">Verify with my wallet</button>
        <p id="outcome"></p>
        <dl id="elements"></dl>
        <script>
        "use strict";
        const asked = {
          docType: "org.iso.18013.5.1.mDL",
          elements: {"org.iso.18013.5.1": ["family_name", "given_name", "age_over_18"]}
        };
        function show(text) { document.getElementById("outcome").textContent = text; }
        async function postJSON(path, body) {
          const answer = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
          const json = await answer.json();
          if (!answer.ok) { throw new Error(json.reason || answer.statusText); }
          return json;
        }
        document.getElementById("verify").addEventListener("click", async () => {
          const list = document.getElementById("elements");
          list.replaceChildren();
          try {
            if (!("DigitalCredential" in window)) { throw new Error("this browser has no Digital Credentials API"); }
            show("Asking your wallet...");
            const made = await postJSON("/requests", {origin: window.location.origin, ...asked});
            const credential = await navigator.credentials.get({
              digital: {requests: [{protocol: "org-iso-mdoc", data: made.request}]}
            });
            show("Verifying...");
            const report = await postJSON("/requests/" + encodeURIComponent(made.id) + "/response", credential.data);
            show(report.outcome === "verified" ? "Verified." : "Not verified: " + report.outcome);
            for (const document_ of report.documents) {
              for (const [nameSpace, elements] of Object.entries(document_.nameSpaces)) {
                for (const [identifier, value] of Object.entries(elements)) {
                  const term = document.createElement("dt");
                  term.textContent = identifier;
                  const description = document.createElement("dd");
                  description.textContent = JSON.stringify(value);
                  list.append(term, description);
                }
              }
            }
          } catch (error) {
            show("Not verified: " + error.message);
          }
        });
        </script>
        </body>
        </html>

        """
}
