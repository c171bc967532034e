"""The slow tests: seconds to minutes each on this project's 2-core machine (solving many or
full deals, worker pools and clusters, subprocesses, hypothesis runs, every language).

``conftest.py`` marks them ``slow`` when it collects them, so ``python -m pytest -m "not slow"``
(the fast loop, README) leaves them out and ``python -m pytest`` (CI) runs everything. Chosen by
``python -m pytest --durations=0``: every test function whose cases took 0.8 s or more in all
(on a loaded machine), and two that took seconds in the fast loop.
``tests/test_fast_loop.py`` checks that each name here is a test function of its file and that the
fast loop still reaches every module.
"""

from __future__ import annotations

SLOW: dict[str, tuple[str, ...]] = {
    "test_advice_prior.py": (  # advice solved on sampled deals
        "test_refine_shrinks_towards_the_typical_variance_it_is_given",
    ),
    "test_analyse_hand_budget.py": (  # a hand's advice and leads in one and in two processes
        "test_fixed_samples_give_the_same_answer_for_any_jobs",
    ),
    "test_analysis.py": (  # PIMC over sampled deals, in one and in several processes
        "test_advice_reproducible_and_jobs_independent",
        "test_jobs_do_not_change_results",
        "test_reproducible_by_seed",
        "test_early_stopping_agrees_with_the_full_run",
        "test_every_legal_move_is_valued_in_range",
        "test_low_hand_passes",
    ),
    "test_anytime.py": (  # the anytime advice under a time budget, in worker processes
        "test_the_calling_hint_takes_a_time_budget",
        "test_the_sequential_test_stops_at_the_same_sample_for_any_jobs",
        "test_the_command_line_start_does_not_load_the_model",
        "test_two_phase_anytime_answers_stop_at_the_same_deal_for_any_jobs",
    ),
    "test_kernel_bounds.py": (  # bounds on many searched positions
        "test_cached_bounds_equal_the_computed_ones_on_a_miss_and_on_the_hit",
    ),
    "test_kernel_claims.py": (  # the kernel's claims against the reference on many hands
        "test_sure_claim_equals_reference_on_hands_with_sets_and_runs",
    ),
    "test_caller_ahead.py": (  # the look-ahead bound against exhaustive search
        "test_an_unsound_variant_is_caught",
        "test_the_bound_never_excludes_the_value_and_cuts",
        "test_the_reference_search_with_the_switch_on",
        "test_solvers_agree_with_the_oracle_where_the_bound_applies",
        "test_the_stop_at_beta",
    ),
    "test_caller_discards.py": (  # the caller's discards, both searches on many endgames
        "test_the_bound_is_between_the_old_one_and_the_value",
        "test_the_searches_with_the_switch",
        "test_the_stop_and_the_floor",
        "test_kernel_bound_equals_the_reference",
    ),
    "test_cli.py": (  # every command's help and errors, subprocesses
        "test_bad_input_one_line_exit_2",
        "test_help_everywhere",
        "test_python_m_lukfu_cli_help",
        "test_one_metavar_style",
        "test_advise_and_analyse_take_a_deal_and_a_seat",
    ),
    "test_cli_analyse.py": (  # analyse and advise end to end, worker pools
        "test_default_node_limits_per_kind_of_work",
        "test_analyse_jobs_same_output",
        "test_advise_jobs_and_seed",
        "test_analyse_hand_master_plain",
        "test_no_progress_bar_when_stderr_is_not_a_terminal",
        "test_analyse_hand_master_json",
        "test_analyse_view_json",
        "test_analyse_view_plain",
        "test_advise_evidence",
        "test_bad_input",
    ),
    "test_cli_sample.py": (  # the sampler from the command line, subprocesses
        "test_impossible_view_names_the_play",
        "test_seed_reproduces_the_samples",
    ),
    "test_cli_solve.py": (  # solve batches in worker pools, Ctrl-C and killed workers
        "test_ctrl_c_stops_a_pool",
        "test_a_killed_worker_ends_the_batch_with_one_line",
        "test_batch_jobs_same_as_one_job",
        "test_bad_input_one_line_exit_2",
        "test_help_does_not_import_search",
    ),
    "test_cluster.py": (  # Dask clusters started and stopped
        "test_cli_ctrl_c_cancels_and_exits_130",
        "test_cli_solve_batch_on_a_local_cluster",
        "test_cli_solve_batch_on_dask_scheduler_and_worker_processes",
        "test_a_scheduler_and_workers_in_separate_processes",
        "test_lost_workers_and_a_lost_scheduler_are_one_line",
        "test_same_results_as_one_process",
        "test_after_an_abort_dask_prints_nothing",
        "test_a_killed_worker_costs_its_task_a_retry",
        "test_cli_match_and_puzzles_on_the_cluster",
        "test_cli_an_unreachable_scheduler_is_one_line",
        "test_a_slow_head_does_not_stall_the_others",
        "test_cli_advise_batch_on_the_cluster",
        "test_an_unreachable_scheduler_fails_at_once_in_one_line",
        "test_the_hardest_tasks_start_first",
    ),
    "test_coalition_ahead.py": (  # the coalition bound against exhaustive search
        "test_the_stop_at_alpha",
        "test_the_bound_never_excludes_the_value_and_cuts",
        "test_the_reference_search_with_the_switch_on",
        "test_solvers_agree_with_the_oracle_where_the_bound_applies",
    ),
    "test_search_discards.py": (  # the discard look-ahead against exhaustive search
        "test_an_unsound_variant_is_caught",
        "test_the_bound_never_passes_the_value_and_cuts",
        "test_the_reference_search_with_the_switch_on",
        "test_solvers_agree_with_the_oracle_where_the_bound_applies",
        "test_kernel_bound_equals_the_reference",
        "test_the_stop_at_beta",
        "test_the_floor",
    ),
    "test_discard_skip.py": (  # the discard skip, kernel against reference
        "test_kernel_bound_equals_the_reference_on_every_kind",
        "test_the_test_before_a_singles_playout",
    ),
    "test_fuzz.py": (  # hypothesis runs over every command, a parallel match signalled
        "test_commands_taking_a_text",
        "test_hostile_numbers_in_options",
        "test_json_readers",
        "test_sigterm_to_a_parallel_match_prints_no_tracebacks",
        "test_line_parsers",
        "test_files_that_are_read",
        "test_numeric_options_are_bounded",
        "test_a_bad_batch_line_never_aborts_the_batch",
    ),
    "test_getting_started.py": (  # every command of docs/getting-started.md run
        "test_every_command_prints_what_the_page_shows",
    ),
    "test_i18n.py": (  # every module scanned, advice and play in every language
        "test_no_module_shadows_the_translation_function",
        "test_advise_in_each_language_runs_and_fits",
        "test_the_play_screen_in_each_language",
        "test_the_lang_option_before_the_command_and_from_the_environment",
    ),
    "test_i18n_help.py": (  # every help page in every language, subprocesses
        "test_help_in_each_language_fits_and_is_translated",
        "test_bad_input_is_one_translated_line_with_exit_2",
        "test_every_help_text_is_extracted_and_every_extracted_one_is_shown",
        "test_a_translated_batch_error_is_the_same_for_any_jobs",
        "test_lukfu_help_does_not_load_the_heavy_libraries",
        "test_help_texts_need_no_markup",
    ),
    "test_inference.py": (  # matches with ipimc in one and two processes
        "test_carried_pool_matches_are_the_same_for_any_jobs",
        "test_analyse_infer_is_the_same_for_any_jobs",
        "test_ipimc_matches_are_the_same_for_any_jobs",
        "test_pimc_plays_only_its_candidates_and_the_mixture_sums_to_one",
    ),
    "test_inference_model.py": (  # the rank model fitted, ipimc's analyses
        "test_the_rank_fit_recovers_known_place_weights",
        "test_the_player_weighs_the_plays_at_the_models_temperature_and_resamples_by_them",
    ),
    "test_hidden_carry.py": (  # carried pools through games, in worker processes
        "test_a_games_carried_analyses_are_the_same_in_another_process",
        "test_a_kept_deal_is_uniform_on_the_new_views_deals",
        "test_carried_deals_stay_consistent_and_keep_a_full_replays_likelihood",
    ),
    "test_players_ipimc_crn.py": (  # a match beside its control
        "test_the_control_game_has_the_same_seeds",
    ),
    "test_players_ipimc_resample.py": (  # resampled analyses in worker processes
        "test_the_rule_models_resampling_is_the_same_in_another_process",
    ),
    "test_kernel.py": (  # the kernel against the reference on hundreds of endgames
        "test_kernel_rules_match_position_along_random_playouts",
        "test_node_limit_stops_at_the_same_node",
        "test_fresh_solvers_agree_on_330_endgames",
        "test_a_guess_never_changes_the_value",
        "test_shared_solvers_agree_and_keep_the_same_history",
        "test_one_pass_discards_match_the_plain_route",
        "test_solver_bounds_equal_value_bounds",
        "test_other_drivers_and_no_reduction_agree",
        "test_a_full_deal_loses_no_entry_before_the_table_is_full",
        "test_larger_endgames_agree",
        "test_a_small_table_stays_exact",
    ),
    "test_kernel_state.py": (  # run slides of the table key on many positions
        "test_run_slides_over_the_candidate_suits_are_the_reference_s",
    ),
    "test_kernel_alphabeta.py": (  # both searches with known moves first
        "test_searches_with_known_moves_first_match_the_reference",
    ),
    "test_last_key.py": (  # table keys over many positions
        "test_a_key_that_forgets_the_blocking_merges_other_values",
        "test_positions_sharing_the_key_share_the_value",
    ),
    "test_lazy_moves.py": (  # a full deal solved with a tiny history log
        "test_a_tiny_history_log_keeps_the_tree",
    ),
    "test_match.py": (  # a match in one and two processes
        "test_match_same_for_jobs_1_and_2",
    ),
    "test_output_words.py": (  # advise, analyse and play in every language
        "test_advise_and_analyse_in_each_language",
        "test_json_is_the_same_in_every_language",
        "test_the_play_screen_and_its_hints_speak_the_glossary",
        "test_hindi_advice_fits_other_widths",
        "test_the_main_commands_speak_the_glossary",
    ),
    "test_hidden_calls_budget.py": (  # whole deals solved three ways
        "test_descend_starts_at_the_upper_bound_whatever_the_node_limit",
        "test_restarts_give_one_solve_s_value_and_stay_within_the_node_limit",
    ),
    "test_hidden_calls_twophase.py": (  # two-phase sampling in worker processes
        "test_exact_phase_values_are_plain_sampling_values_and_jobs_do_not_matter",
    ),
    "test_play_cli.py": (  # games played through the terminal with hints
        "test_call_hint_gives_advise_numbers",
        "test_hint_undo_and_help",
        "test_fresh_default_names_and_no_overwrite",
        "test_play_deals_the_hand_deal_shows",
    ),
    "test_play_screen.py": (  # whole deals on the play screen
        "test_the_table_at_a_glance",
        "test_a_whole_deal_with_tricks_and_the_record",
        "test_an_opponents_claim_is_announced_when_it_happens",
        "test_at_60_columns_the_seats_table_keeps_each_row_on_one_line",
        "test_tables_line_up_in_every_language",
    ),
    "test_players.py": (  # the quick sampler over many views
        "test_quick_sampler_deals_consistent_positions",
    ),
    "test_properties.py": (  # hypothesis properties over random playouts
        "test_is_legal_agrees_with_legal_moves",
        "test_push_pop_restores_string_and_key",
        "test_playout_invariants",
        "test_positions_and_plays_parse_to_canonical",
        "test_moves_match_reference_rules",
    ),
    "test_puzzles.py": (  # puzzles generated twice
        "test_generator_reproducible_by_seed",
    ),
    "test_search_bounds.py": (  # the R7 bound against exhaustive search
        "test_the_bound_never_excludes_the_value_and_cuts",
        "test_solvers_agree_with_the_oracle_where_the_bound_applies",
        "test_a_seat_missing_an_unknown_card_is_not_given_it",
        "test_the_look_ahead_never_excludes_the_value_and_cuts",
        "test_solvers_agree_with_the_oracle_where_the_look_ahead_applies",
    ),
    "test_search_reductions.py": (  # rank classes, kernel against reference
        "test_a_dropped_discard_is_never_better_than_the_one_kept",
        "test_the_kernel_reduces_as_the_reference_does",
        "test_a_wider_class_of_singles_holds_equal_cards",
    ),
    "test_review.py": (  # whole deals reviewed, in one and in two processes
        "test_a_thrown_away_won_deal_is_a_blunder_with_its_exact_cost",
        "test_the_numbers_are_analyses_and_solves",
        "test_the_same_review_on_two_processes",
        "test_a_perfect_deal_costs_nothing_anywhere",
    ),
    "test_review_cli.py": (  # reviews of a whole deal, in every language, over pools and a cluster
        "test_a_batch_in_input_order_the_same_for_any_jobs",
        "test_a_batch_on_a_cluster_is_the_same",
        "test_json_has_the_documented_keys",
        "test_ctrl_c_stops_a_review_on_two_processes",
        "test_json_is_the_same_in_every_language",
        "test_the_review_in_each_language",
        "test_the_chart_fits_the_terminal",
        "test_the_review_speaks_a_players_words",
    ),
    "test_review_doc.py": (  # the page's reviews run again
        "test_every_command_prints_what_the_page_shows",
    ),
    "test_search_table_key.py": (  # run slides of the table key on many positions
        "test_positions_one_run_slide_apart_share_the_key_and_the_value",
        "test_a_run_slid_position_has_the_value_of_the_original",
    ),
    "test_sampling.py": (  # the exact sampler against brute force
        "test_true_deal_is_always_consistent",
        "test_model_equals_brute_force_on_real_deals",
        "test_every_sample_replays_to_its_position",
        "test_sampler_is_uniform_on_exactly_the_consistent_deals",
        "test_true_deal_is_among_the_enumerated_deals",
    ),
    "test_search.py": (  # the solvers against minimax on thousands of endgames
        "test_value_bounds_bracket_the_value",
        "test_mix_is_varied",
        "test_alphabeta_reference_equals_minimax",
        "test_shared_solver_tells_twins_apart",
        "test_drivers_agree",
        "test_solver_stays_exact_after_an_aborted_search",
        "test_solver_matches_reference_on_5_card_endgames",
        "test_shared_solver_along_playouts",
        "test_solver_matches_reference_on_set_and_run_tricks",
        "test_node_and_time_limited_bounds_bracket_the_value",
        "test_table_keeps_a_move_only_when_the_side_to_move_did_not_fail_low",
        "test_shared_solver_on_positions_that_differ_only_off_the_board",
        "test_all_moves_values_match_the_oracle",
        "test_shared_solver_matches_minimax_on_1000_endgames",
        "test_hand_made_position",
        "test_caller_discards_search_only_the_lowest_of_a_class",
        "test_fresh_solver_matches_minimax_on_1000_endgames",
        "test_plain_alphabeta_matches_minimax_on_1000_endgames",
        "test_time_limit_returns_promptly_on_a_full_deal",
        "test_principal_variation_replays_to_the_value",
    ),
    "test_search_driver.py": (  # every move of full deals solved
        "test_all_moves_values_are_those_of_separate_solves",
    ),
    "test_slide_key.py": (  # slides of the table key on many positions
        "test_a_slid_position_has_the_value_of_the_original",
        "test_positions_one_slide_apart_share_the_key_and_the_value",
        "test_the_conditions_are_needed",
    ),
    "test_table_key.py": (  # table keys over many positions
        "test_splits_that_block_the_same_cards_share_the_key_and_the_value",
    ),
    "test_tasks.py": (  # worker processes started, stopped, killed and replaced
        "test_cancelling_one_task_leaves_the_others_running",
        "test_a_queued_task_is_dropped_and_priorities_order_the_queue",
        "test_a_killed_worker_fails_only_its_own_task",
        "test_progress_is_reported",
    ),
    "test_threads.py": (  # two-thread searches of full deals
        "test_the_count_catches_a_principal_variation_that_ignores_the_table",
        "test_the_count_catches_a_helper_that_keeps_its_moves",
        "test_two_threads_never_search_much_more_than_one",
        "test_two_threads_same_value_and_a_pv_that_keeps_it",
        "test_the_helper_keeps_no_moves_and_the_main_search_does",
    ),
    "test_view.py": (  # views of many random deals
        "test_views_of_random_deals_round_trip_and_agree_with_positions",
    ),
    "test_warmup.py": (  # a subprocess timing the compilation check
        "test_a_small_endgame_does_not_wait_for_the_compilation",
    ),
    "test_web_api.py": (  # the table's jobs in a worker: a review, the call's advice, a killed worker
        "test_the_review_of_a_finished_deal_is_lukfu_review_s",
        "test_the_call_hint_is_the_advice_with_its_chart",
        "test_a_killed_engine_worker_is_replaced_and_the_move_made",
    ),
    "test_web_e2e.py": (  # a real browser playing a whole deal
        "test_a_whole_deal_by_clicking",
        "test_several_tabs_play_their_own_games",
    ),
    "test_workers.py": (  # process pools started and stopped
        "test_results_in_input_order_for_any_jobs",
        "test_every_worker_starts_with_ctrl_c_ignored",
        "test_workers_serve_several_maps",
        "test_an_endless_input_is_read_only_as_far_as_needed",
        "test_an_error_in_a_task_reaches_the_caller",
        "test_a_dead_worker_is_reported_not_waited_for",
        "test_ctrl_c_in_the_middle_ends_the_workers_at_once",
    ),
    "test_advice_words.py": (  # advise and analyse run
        "test_analyse_explains_the_estimated_column_and_marks_zero",
    ),
    "test_no_english_left.py": (  # every screen in four languages
        "test_no_english_word_is_left",
    ),
    "test_play_discards.py": (  # the play screen in tmux, the hint's candidates
        "test_a_discard_on_screen",
        "test_the_masters_first_lead_hint_in_russian",
        "test_the_sensible_discards_come_first_and_every_discard_is_still_there",
    ),
    "test_play_words.py": (  # games with hints in every language
        "test_commands_in_the_players_language",
        "test_numbers_are_written_as_the_language_writes_them",
    ),
    "test_puzzle_screens.py": (  # puzzles in tmux
        "test_generate_on_a_terminal_saves_a_file_and_says_how_to_play_it",
        "test_puzzle_play_wraps_by_words_at_80_columns",
    ),
}
"""Test file -> its slow test functions (all the cases of a parametrized one)."""
