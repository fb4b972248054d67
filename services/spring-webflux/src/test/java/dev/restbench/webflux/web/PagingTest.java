package dev.restbench.webflux.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PagingTest {

    @Test
    void defaultsAndLongOffsets() {
        assertThat(Paging.of(null, null)).isEqualTo(new Paging(0, 20));
        assertThat(Paging.of("2147483647", "100").offset()).isEqualTo(214_748_364_700L);
    }

    @Test
    void refusesWhatTheContractRefuses() {
        for (String[] query : new String[][]{{"-1", null}, {null, "0"}, {null, "101"}, {"abc", null},
                {null, "1.5"}, {"99999999999", null}, {"1e3", null}, {"", null}, {null, ""}, {"1,2", null}}) {
            assertThatThrownBy(() -> Paging.of(query[0], query[1])).isInstanceOf(InvalidInputException.class);
        }
        assertThatThrownBy(() -> Paging.id("id", "99999999999999999999")).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void pageTotals() {
        PageResponse<String> page = PageResponse.of(java.util.List.of(), new Paging(3, 20), 41);
        assertThat(page.totalPages()).isEqualTo(3);
        assertThat(page.page()).isEqualTo(3);
    }
}
