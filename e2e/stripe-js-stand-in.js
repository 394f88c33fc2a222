// A local stand-in for Stripe.js (https://js.stripe.com/<release>/stripe.js), served by
// e2e/live-checkout-stripe-js.spec.ts through page.route: nothing outside can be reached in tests.
// It implements only what @stripe/stripe-js's loader and @stripe/react-stripe-js call, and records
// every call in window.__stripeStandIn for the spec to read. The Payment Element mounts a plain
// card-number field (no iframe); createPaymentMethod turns 4242 4242 4242 4242 into the Stripe test
// method pm_card_visa and 4000 0000 0000 0002 into pm_card_chargeDeclined, which the Stripe
// emulator then charges or declines as Stripe would.
(function () {
  "use strict";
  var log = {
    stripe: [],
    elements: [],
    created: [],
    submits: 0,
    paymentMethods: [],
    wrappers: [],
    appInfo: [],
  };
  window.__stripeStandIn = log;

  var methods = { 4242424242424242: "pm_card_visa", 4000000000000002: "pm_card_chargeDeclined" };

  function makeElement(type, options, mounted) {
    var handlers = {};
    var container = null;
    var emit = function (event, payload) {
      (handlers[event] || []).forEach(function (handler) {
        handler(Object.assign({ elementType: type }, payload || {}));
      });
    };
    var element = {
      mount: function (target) {
        container = typeof target === "string" ? document.querySelector(target) : target;
        var root = document.createElement("div");
        root.dataset.testid = "stripe-stand-in-" + type;
        if (type === "payment") {
          var label = document.createElement("label");
          label.textContent = "Card number (Stripe)";
          var input = document.createElement("input");
          input.name = "stripe-stand-in-number";
          input.inputMode = "numeric";
          input.autocomplete = "cc-number";
          label.appendChild(input);
          root.appendChild(label);
          input.addEventListener("input", function () {
            emit("change", {
              complete: Boolean(methods[input.value.replace(/\D/g, "")]),
              empty: !input.value,
              value: { type: "card" },
            });
          });
        }
        container.appendChild(root);
        mounted[type] = root;
        setTimeout(function () {
          emit("ready", type === "expressCheckout" ? { availablePaymentMethods: undefined } : {});
        }, 0);
      },
      on: function (event, handler) {
        (handlers[event] = handlers[event] || []).push(handler);
        return element;
      },
      off: function (event, handler) {
        handlers[event] = (handlers[event] || []).filter(function (h) {
          return h !== handler;
        });
        return element;
      },
      update: function (updates) {
        Object.assign(options, updates);
      },
      unmount: function () {
        if (mounted[type] && mounted[type].parentNode) mounted[type].parentNode.removeChild(mounted[type]);
        delete mounted[type];
      },
      destroy: function () {
        element.unmount();
      },
      focus: function () {},
      blur: function () {},
      clear: function () {},
    };
    return element;
  }

  function numberOf(mounted) {
    var input = mounted.payment && mounted.payment.querySelector("input");
    return input ? input.value.replace(/\D/g, "") : "";
  }

  function Stripe(publishableKey, options) {
    log.stripe.push({ publishableKey: publishableKey, options: options || {} });
    var stripe = {
      elements: function (elementsOptions) {
        var recorded = JSON.parse(JSON.stringify(elementsOptions || {}));
        log.elements.push(recorded);
        var mounted = {};
        var created = {};
        return {
          _standIn: { mounted: mounted },
          create: function (type, elementOptions) {
            log.created.push({ type: type, options: JSON.parse(JSON.stringify(elementOptions || {})) });
            created[type] = makeElement(type, elementOptions || {}, mounted);
            return created[type];
          },
          getElement: function (type) {
            return created[type] || null;
          },
          update: function (updates) {
            Object.assign(recorded, JSON.parse(JSON.stringify(updates)));
          },
          fetchUpdates: function () {
            return Promise.resolve({});
          },
          submit: function () {
            log.submits += 1;
            var number = numberOf(mounted);
            if (!number)
              return Promise.resolve({
                error: {
                  type: "validation_error",
                  code: "incomplete_number",
                  message: "Your card number is incomplete.",
                },
              });
            if (!methods[number])
              return Promise.resolve({
                error: {
                  type: "validation_error",
                  code: "invalid_number",
                  message: "Your card number is invalid.",
                },
              });
            return Promise.resolve({ selectedPaymentMethod: "card" });
          },
        };
      },
      createPaymentMethod: function (request) {
        var params = (request && request.params) || {};
        var mounted =
          request && request.elements && request.elements._standIn ? request.elements._standIn.mounted : {};
        var id = methods[numberOf(mounted)];
        log.paymentMethods.push({ params: JSON.parse(JSON.stringify(params)), id: id || null });
        if (!id)
          return Promise.resolve({
            error: { type: "card_error", code: "invalid_number", message: "Your card number is invalid." },
          });
        return Promise.resolve({
          paymentMethod: {
            id: id,
            object: "payment_method",
            type: "card",
            billing_details: params.billing_details || {},
          },
        });
      },
      createToken: function () {
        return Promise.resolve({ error: { type: "invalid_request_error", message: "Not in the stand-in" } });
      },
      confirmCardPayment: function () {
        return Promise.resolve({ error: { type: "invalid_request_error", message: "Not in the stand-in" } });
      },
      confirmPayment: function () {
        return Promise.resolve({ error: { type: "invalid_request_error", message: "Not in the stand-in" } });
      },
      _registerWrapper: function (wrapper) {
        log.wrappers.push(wrapper);
      },
      registerAppInfo: function (info) {
        log.appInfo.push(info);
      },
    };
    return stripe;
  }
  // The release @stripe/stripe-js expects (it warns about another one with a test key).
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();
