package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PairedFailuresTest {

    @Test
    void onlyTheDiscordantRoundsCountAndTheTailIsExact() {
        // Five rounds where only the head failed, none where only the base did: (1/2)^5.
        assertThat(new PairedFailures(7, 5, 0, 2).pHeadWorse()).isCloseTo(1.0 / 32, within(1e-12));
        // 3 of 4 discordant rounds the head's: P(X >= 3 | 4, 1/2) = 5/16, whatever the concordant rounds.
        assertThat(new PairedFailures(20, 3, 1, 9).pHeadWorse()).isCloseTo(5.0 / 16, within(1e-12));
        assertThat(new PairedFailures(20, 3, 1, 9).pBaseWorse()).isCloseTo(15.0 / 16, within(1e-12));
        // One failed start in seven rounds is p = 1/2: no evidence.
        assertThat(new PairedFailures(7, 1, 0, 0).pHeadWorse()).isCloseTo(0.5, within(1e-12));
        assertThat(new PairedFailures(7, 0, 0, 3).pHeadWorse()).isEqualTo(1.0);
    }

    @Test
    void aSideThatFailsInEveryRoundOfAtLeastThreeIsACrash() {
        assertThat(new PairedFailures(3, 3, 0, 0).headAlwaysFails()).isTrue();
        // Two rounds: a jar failing half its starts on both sides does that by chance 1/16 of the time.
        assertThat(new PairedFailures(2, 2, 0, 0).headAlwaysFails()).isFalse();
        assertThat(new PairedFailures(1, 1, 0, 0).headAlwaysFails()).isFalse();
        assertThat(new PairedFailures(3, 2, 0, 1).headAlwaysFails()).isFalse();
        assertThat(new PairedFailures(3, 0, 3, 0).baseAlwaysFails()).isTrue();
        assertThat(new PairedFailures(3, 0, 0, 0).any()).isFalse();
    }

    @Test
    void countsThatDoNotAddUpAreRefused() {
        assertThatThrownBy(() -> new PairedFailures(2, 2, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PairedFailures(2, -1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
