package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.vnf.builtin.tenant.TenantClassifierFactory;
import io.transnfv.vnf.builtin.tenant.TenantLimiterFactory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The {@code tenants:} section: how a good file compiles into one chain, and every error at its line:column with a fix. */
class TenantsYamlTest
{
    private final ChainLoader loader = new ChainLoader();

    private static final String INLINE = "{ vnfs: [ { name: monitor, type: flow-monitor } ] }";

    @Test
    void shouldCompileTheBundledTenantsIntoOneDagWithTenantQualifiedVnfs()
    {
        final ChainSpec chain = loader.loadBundled("tenants");
        assertEquals(List.of("ingress", "web", "web-nat", "web-lb", "web-td", "shop", "shop-lb", "secure", "secure-fw", "secure-scan",
            "secure-monitor"), chain.vnfs().stream().map(VnfNode::name).toList());
        assertInstanceOf(TenantClassifierFactory.class, chain.vnfs().get(0).factory());
        final TenantClassifierFactory classifier = (TenantClassifierFactory)chain.vnfs().get(0).factory();
        assertEquals(List.of("web", "shop", "secure"), classifier.tenants());
        assertEquals(-1, classifier.defaultTenant());
        assertEquals(List.of("shop", "shop-lb"), classifier.members().get(1));
        assertEquals(TenantLimiterFactory.TYPE, node(chain, "shop").type());
        assertEquals(100_000L, node(chain, "shop").config().getLong("pps"));
        assertEquals(500L, node(chain, "shop").config().getLong("burst"));
        assertEquals(0L, node(chain, "web").config().getLong("pps"));
        assertEquals(64, node(chain, "shop-lb").config().getInt("servers"), "the tenant's override");
        assertEquals(7200, loader.loadBundled("lb").vnfs().get(0).config().getInt("servers"), "the bundled chain is unchanged");
        assertEquals(20_000L, node(chain, "secure-monitor").tables().get("flow-packets").capacity(), "limits: entries");
        assertTrue(node(chain, "web-nat").tables().isEmpty(), "a tenant without 'entries' keeps its chain's tables");
        final List<String> edges = chain.edges().stream().map(e -> e.from() + ":" + e.output() + "->" + e.to()).toList();
        assertEquals(List.of("ingress:web->web", "web:out->web-nat", "web-nat:out->web-lb", "web-lb:out->web-td",
            "ingress:shop->shop", "shop:out->shop-lb",
            "ingress:secure->secure", "secure:out->secure-fw", "secure-fw:out->secure-scan", "secure-fw:out->secure-monitor",
            "secure-scan:out->secure-monitor"), edges);
        final EdgeSpec tcpOnly = chain.edges().get(8);
        assertEquals("{ proto: tcp }", tcpOnly.whenText(), "a tenant's edges keep their 'when'");
    }

    @Test
    void shouldSendUnmatchedPacketsToTheDefaultTenant()
    {
        final ChainSpec chain = loader.parse("""
            name: t
            tenants:
              - name: a
                match: { vlan: 7 }
                chain: lb
              - name: b
                match: { dscp: [46, 34] }
                chain: lb
            default_tenant: b
            """, "t.yaml");
        assertEquals(1, ((TenantClassifierFactory)chain.vnfs().get(0).factory()).defaultTenant());
    }

    @Test
    void shouldRefuseAnUnknownBundledChainWithTheClosestName()
    {
        final ChainError error = single(tenant("match: { vlan: 1 }\n    chain: nat-lb-tdd"));
        assertEquals("5:12", error.position());
        assertContains(error.message(), "unknown chain 'nat-lb-tdd' for tenant 'a'");
        assertContains(error.fix(), "did you mean 'nat-lb-td'?");
    }

    @Test
    void shouldRefuseATenantsChainAsATenantsChain()
    {
        final ChainError error = single(tenant("chain: tenants"));
        assertContains(error.message(), "a tenant's chain cannot have tenants itself");
    }

    @Test
    void shouldRefuseParamsOfAVnfTheChainDoesNotHave()
    {
        final ChainError error = single(tenant("chain: lb\n    params: { lbb: { servers: 8 } }"));
        assertEquals("5:15", error.position());
        assertContains(error.message(), "no VNF 'lbb' in the chain of tenant 'a'");
        assertContains(error.fix(), "did you mean 'lb'?");
    }

    @Test
    void shouldReportABadOverrideAtTheTenantsOwnLine()
    {
        final ChainError error = single(tenant("chain: lb\n    params: { lb: { servers: -3 } }"));
        assertEquals(5, error.line());
        assertContains(error.message(), "servers");
    }

    @Test
    void shouldRefuseATenantAfterOneWithoutAMatch()
    {
        final List<ChainError> errors = loader.validate("""
            name: t
            tenants:
              - name: all
                chain: lb
              - name: late
                match: { vlan: 5 }
                chain: lb
            """, "t.yaml");
        final ChainError error = single(errors);
        assertEquals("6:12", error.position());
        assertContains(error.message(), "tenant 'late' is never reached", "tenant 'all' (at 3:11)", "has no match");
        assertContains(error.fix(), "move 'late' above 'all'");
    }

    @Test
    void shouldRefuseATenantWhosePrefixesAndVlansAnEarlierOneCovers()
    {
        final List<ChainError> errors = loader.validate("""
            name: t
            tenants:
              - name: wide
                match: { src_net: [10.0.0.0/8, 192.168.0.0/16], vlan: [1, 2, 3] }
                chain: lb
              - name: narrow
                match: { src_net: 10.1.2.0/24, vlan: 2 }
                chain: lb
              - name: other
                match: { src_net: 10.1.2.0/24, vlan: 4 }
                chain: lb
            """, "t.yaml");
        final ChainError error = single(errors);
        assertEquals("7:12", error.position());
        assertContains(error.message(), "tenant 'narrow' is never reached", "its match accepts every packet this one does");
    }

    @Test
    void shouldReportTenantsWithoutAChainOnceEachAndNotAsUnreachable()
    {
        final List<ChainError> errors = loader.validate("""
            name: t
            tenants:
              - name: a
                type: firewall
              - name: b
            """, "t.yaml");
        assertEquals(3, errors.size(), () -> render(errors));
        assertContains(at(errors, "4:5").message(), "unknown key 'type' in a tenant");
        assertContains(at(errors, "3:5").message(), "tenant 'a' is missing 'chain'");
        assertContains(at(errors, "5:5").message(), "tenant 'b' is missing 'chain'");
        assertTrue(errors.stream().noneMatch(e -> e.message().contains("never reached")), () -> render(errors));
    }

    @Test
    void shouldRefuseDuplicateTenantNames()
    {
        final List<ChainError> errors = loader.validate("""
            name: t
            tenants:
              - name: a
                match: { vlan: 1 }
                chain: lb
              - name: a
                match: { vlan: 2 }
                chain: lb
            """, "t.yaml");
        final ChainError error = single(errors);
        assertEquals("6:11", error.position());
        assertContains(error.message(), "duplicate tenant name 'a' (first used at 3:11)");
    }

    @Test
    void shouldRefuseNamesThatMeetInTheCompiledChain()
    {
        final List<ChainError> errors = loader.validate("""
            name: t
            tenants:
              - name: a
                match: { vlan: 1 }
                chain: lb
              - name: a-lb
                match: { vlan: 2 }
                chain: lb
            """, "t.yaml");
        final ChainError error = single(errors);
        assertEquals("6:11", error.position());
        assertContains(error.message(), "the name 'a-lb' is taken twice in the compiled chain");
    }

    @Test
    void shouldRefuseImpossibleLimits()
    {
        final List<ChainError> errors = errors(tenant("chain: lb\n    limits: { pps: 0, entries: 0, burst: -1 }"));
        assertEquals(3, errors.size(), () -> render(errors));
        assertContains(at(errors, "5:20").message(), "bad 'pps' of tenant 'a' 0");
        assertContains(at(errors, "5:20").fix(), "[1, 1000000000]");
        assertContains(at(errors, "5:32").message(), "bad 'entries' of tenant 'a' 0");
        assertContains(at(errors, "5:42").message(), "bad 'burst' of tenant 'a' -1");
    }

    @Test
    void shouldRefuseABurstWithoutARate()
    {
        final ChainError error = single(tenant("chain: lb\n    limits: { burst: 10 }"));
        assertContains(error.message(), "'burst' of tenant 'a' without 'pps'");
    }

    @Test
    void shouldRefuseUnknownKeysWithTheClosestOne()
    {
        final List<ChainError> errors = errors(tenant("chain: lb\n    limts: { pps: 5 }\n    match: { src_nett: 10.0.0.0/8 }"));
        assertContains(at(errors, "5:5").message(), "unknown key 'limts' in a tenant");
        assertContains(at(errors, "5:5").fix(), "did you mean 'limits'?");
        assertContains(at(errors, "6:14").message(), "unknown key 'src_nett' in the match of tenant 'a'");
        assertContains(at(errors, "6:14").fix(), "did you mean 'src_net'?");
    }

    @Test
    void shouldRefuseSettingsThatAreNotBuiltInsteadOfIgnoringThem()
    {
        final List<ChainError> errors = errors(tenant("chain: lb\n    weight: 2\n    affinity: [0, 1]\n    limits: { pps: 10, weight: 3 }"));
        assertEquals(3, errors.size(), () -> render(errors));
        assertContains(at(errors, "5:5").message(), "'weight' in a tenant: a tenant's share of executor time is not built");
        assertContains(at(errors, "6:5").message(), "pinning a tenant to executors is not built");
        assertContains(at(errors, "7:24").message(), "not built");
        assertContains(at(errors, "7:24").fix(), "docs/tenants.md");
    }

    @Test
    void shouldRefuseVnfsBesideTenantsAndAnUnknownDefault()
    {
        final List<ChainError> errors = loader.validate("""
            name: t
            vnfs:
              - { name: lb, type: lb }
            tenants:
              - name: a
                chain: lb
            default_tenant: b
            """, "t.yaml");
        assertContains(at(errors, "2:1").message(), "'vnfs' beside 'tenants'");
        assertContains(at(errors, "7:17").message(), "no tenant 'b'");
    }

    @Test
    void shouldRefuseBadMatchValues()
    {
        final List<ChainError> errors = errors(tenant("chain: lb\n    match: { vlan: 5000, dscp: 64, dst_net: 10.0.0.0/33 }"));
        assertEquals(3, errors.size(), () -> render(errors));
        assertContains(at(errors, "5:20").fix(), "[0, 4095]");
        assertContains(at(errors, "5:32").fix(), "[0, 63]");
        assertContains(at(errors, "5:45").message(), "bad dst_net");
    }

    @Test
    void shouldReadIpv6PrefixesBesideIpv4OnesAndRefuseATenantAnEarlierIpv6PrefixCovers()
    {
        assertTrue(loader.validate("""
            name: t
            tenants:
              - name: v6
                match: { src_net: [2001:db8:a::/48, 10.0.0.0/24], dst_net: fd00::/8 }
                chain: lb
              - name: v6-other
                match: { src_net: 2001:db8:b::/48 }
                chain: lb
            """, "t.yaml").isEmpty());
        final List<ChainError> errors = loader.validate("""
            name: t
            tenants:
              - name: site
                match: { src_net: [2001:db8::/32, 10.0.0.0/8], vlan: [1, 2] }
                chain: lb
              - name: office
                match: { src_net: [2001:db8:5::/48, 10.1.0.0/16], vlan: 2 }
                chain: lb
              - name: mixed
                match: { src_net: [2001:db8:5::/48, 192.168.0.0/16] }
                chain: lb
            """, "t.yaml");
        final ChainError error = single(errors);
        assertEquals("7:12", error.position());
        assertContains(error.message(), "tenant 'office' is never reached", "tenant 'site' (at 3:11)");
    }

    @Test
    void shouldRefuseABadIpv6PrefixAndTheInputPortWithWhyItIsNotBuilt()
    {
        final List<ChainError> errors = errors(tenant("chain: lb\n    match: { src_net: [2001:db8:1::/32], input_port: 1 }"));
        assertEquals(2, errors.size(), () -> render(errors));
        assertContains(at(errors, "5:24").message(), "bad src_net", "has host bits set");
        assertContains(at(errors, "5:24").fix(), "IPv6 prefix");
        assertContains(at(errors, "5:42").message(), "'input_port' in the match of tenant 'a'", "no packet source records the port");
    }

    @Test
    void shouldReportAnInlineChainsErrorsAtTheirLines()
    {
        final List<ChainError> errors = errors(tenant("chain:\n      vnfs:\n        - { name: m, type: flow-monitr }"));
        assertContains(at(errors, "6:28").message(), "unknown VNF type 'flow-monitr'");
        assertTrue(loader.validate("name: t\ntenants:\n  - name: a\n    chain: " + INLINE + "\n", "t.yaml").isEmpty());
    }

    private String tenant(final String body)
    {
        return "name: t\ntenants:\n  - name: a\n    " + body + "\n";
    }

    private List<ChainError> errors(final String yaml)
    {
        return loader.validate(yaml, "t.yaml");
    }

    private ChainError single(final String yaml)
    {
        return single(errors(yaml));
    }

    private static VnfNode node(final ChainSpec chain, final String name)
    {
        return chain.vnfs().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static ChainError single(final List<ChainError> errors)
    {
        assertEquals(1, errors.size(), () -> "expected one error, got:\n" + render(errors));
        return errors.get(0);
    }

    private static ChainError at(final List<ChainError> errors, final String position)
    {
        for (final ChainError error : errors)
        {
            if (error.position().equals(position))
            {
                return error;
            }
        }
        return fail("no error at " + position + " in:\n" + render(errors));
    }

    private static void assertContains(final String text, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(text.contains(part), () -> "expected '" + part + "' in: " + text);
        }
    }

    private static String render(final List<ChainError> errors)
    {
        return errors.stream().map(ChainError::format).collect(Collectors.joining("\n"));
    }
}
