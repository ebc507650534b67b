import { describe, expect, it } from "vitest";
import { classifyAddress } from "./address-policy";

/** Which addresses pass (docs/security.md "Outbound requests"): public unicast only. */
describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["2001:4860:4860::8888", "public"],
    ["64:ff9b::808:808", "public"],
    ["2002:808:808::1", "public"],
    ["::ffff:8.8.8.8", "public"],
  ])("lets the public address %s pass", (address, verdict) => {
    expect(classifyAddress(address).verdict).toBe(verdict);
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["10.1.2.3", "private"],
    ["172.31.255.255", "private"],
    ["192.168.10.1", "private"],
    ["fd12::1", "uniqueLocal"],
    ["169.254.1.1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["::ffff:7f00:1", "ipv4Mapped(loopback)"],
    ["::ffff:0:7f00:1", "rfc6145(loopback)"],
    ["64:ff9b::a00:1", "rfc6052(private)"],
    ["64:ff9b:1::1", "rfc6052"],
    ["2002:c0a8:101::1", "6to4(private)"],
    ["2001::1", "teredo"],
    ["::7f00:1", "unallocated"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["2130706433", "loopback"],
    ["0x7f.1", "loopback"],
    ["not-an-address", "invalid"],
  ])("refuses %s (%s) unless the operator opened its host", (address, range) => {
    expect(classifyAddress(address)).toEqual({ verdict: "private", range });
  });

  it.each([
    "169.254.169.254",
    "169.254.170.2",
    "fd00:ec2::254",
    "100.100.100.200",
    "192.0.0.192",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
  ])("marks the cloud metadata address %s, which nothing opens", (address) => {
    expect(classifyAddress(address).verdict).toBe("metadata");
  });
});
